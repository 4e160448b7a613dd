// GitLab's two duration languages, read by one parser with two calendars:
// - time tracking (`/spend 1mo 2w 3d 4h 5m`, `3h30m`, `1.5h`): a day is 8 h, a week 5 days, a month 4 weeks, a bare
//   number is hours, and a leading `-` subtracts;
// - CI (ChronicDuration: `30 days`, `1 week`, `2 hrs`, `1h 30m`, `1:30:00`): a day is 24 h, a week 7 days, a month
//   30 days, a year 365.25 days, a bare number or a part without a unit is seconds.
const MINUTE = 60
const HOUR = 60 * MINUTE

// Maps, not object literals: units come from clients and files, and `constructor` is a key of every plain object.
const unitTable = (sizes: ReadonlyArray<readonly [number, string]>) =>
  new Map<string, number>(sizes.flatMap(([size, names]) => names.split(' ').map((n) => [n, size] as [string, number])))

interface Calendar {
  units: Map<string, number>
  /** What a bare number counts. */
  bare: number
  /** What a number without a unit among others counts; null when every part needs one. */
  unitless: number | null
  /** `h:mm[:ss]` clock notation. */
  clock: boolean
  /** A leading `-` negates. */
  signed: boolean
}

const TT_DAY = 8 * HOUR
const TT_WEEK = 5 * TT_DAY
const TT_MONTH = 4 * TT_WEEK
const TIME_TRACKING: Calendar = {
  units: unitTable([
    [TT_MONTH, 'mo mos month months'],
    [TT_WEEK, 'w wk wks week weeks'],
    [TT_DAY, 'd day days'],
    [HOUR, 'h hr hrs hour hours'],
    [MINUTE, 'm min mins minute minutes'],
    [1, 's sec secs second seconds'],
  ]),
  bare: HOUR,
  unitless: null,
  clock: false,
  signed: true,
}

const DAY = 24 * HOUR
const CHRONIC: Calendar = {
  units: unitTable([
    [31_557_600, 'y yr yrs year years'],
    [30 * DAY, 'mo mos mon mons month months'],
    [7 * DAY, 'w wk wks week weeks'],
    [DAY, 'd day days'],
    [HOUR, 'h hr hrs hour hours'],
    [MINUTE, 'm min mins minute minutes'],
    [1, 's sec secs second seconds'],
  ]),
  bare: 1,
  unitless: 1,
  clock: true,
  signed: false,
}

function parse(text: string, cal: Calendar): number | null {
  let s = String(text).trim().toLowerCase()
  const negative = cal.signed && s.startsWith('-')
  if (negative) s = s.slice(1).trim()
  if (s === '') return null
  const sign = negative ? -1 : 1
  if (/^\d+(\.\d+)?$/.test(s)) return sign * Math.round(Number(s) * cal.bare)
  const clock = cal.clock ? /^(\d+):(\d{1,2})(?::(\d{1,2}))?$/.exec(s) : null
  if (clock) {
    const [a, b, c] = [Number(clock[1]), Number(clock[2]), clock[3] === undefined ? null : Number(clock[3])]
    return sign * (c === null ? a * MINUTE + b : a * HOUR + b * MINUTE + c)
  }
  // Filler words and punctuation between the parts are dropped, as GitLab's parsers do.
  const part = /(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*(?:(?:and|,)\s*)?/y
  let total = 0
  let pos = 0
  while (pos < s.length) {
    part.lastIndex = pos
    const m = part.exec(s)
    const unit = !m ? undefined : m[2] === '' ? (cal.unitless ?? undefined) : cal.units.get(m[2])
    if (unit === undefined) return null
    total += Number(m![1]) * unit
    pos = part.lastIndex
  }
  return sign * Math.round(total)
}

/** Time-tracking seconds (`/spend`, `time_estimate`), or null when the text is not a duration. */
export const parseTimeSpent = (text: string): number | null => parse(text, TIME_TRACKING)

/** CI seconds (`timeout`, `start_in`, `expire_in`, `auto_stop_in`), or null when the text is not a duration. */
export const parseCiDuration = (text: string): number | null => parse(text, CHRONIC)

/** `artifacts:expire_in`: seconds, 'never' to keep forever, or null when the text is not a duration. */
export function expireInSeconds(text: string): number | 'never' | null {
  return String(text).trim().toLowerCase() === 'never' ? 'never' : parseCiDuration(text)
}

/** Time tracking's `3h 30m`, biggest unit first, zero parts dropped; zero is null. */
export function humanDuration(seconds: number): string | null {
  if (!seconds) return null
  const sign = seconds < 0 ? '-' : ''
  let rest = Math.abs(seconds)
  const parts: string[] = []
  for (const [unit, size] of [['mo', TT_MONTH], ['w', TT_WEEK], ['d', TT_DAY], ['h', HOUR], ['m', MINUTE], ['s', 1]] as const) {
    const n = Math.floor(rest / size)
    rest -= n * size
    if (n) parts.push(`${n}${unit}`)
  }
  return sign + parts.join(' ')
}
