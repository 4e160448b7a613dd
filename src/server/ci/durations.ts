// CI durations as GitLab reads them with ChronicDuration: `30 days`, `1 week`, `2 hrs`, `1h 30m`, `1:30:00`; a bare
// number is seconds. Unlike time tracking (services/durations.ts), a day is 24 hours and a week 7 days.
const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const WEEK = 7 * DAY
const MONTH = 30 * DAY
const YEAR = 31_557_600 // ChronicDuration's year: 365.25 days

// A Map, not an object literal: units come from the file, and `constructor` is a key of every plain object.
const UNITS = new Map<string, number>(([
  [YEAR, 'y yr yrs year years'],
  [MONTH, 'mo mos mon mons month months'],
  [WEEK, 'w wk wks week weeks'],
  [DAY, 'd day days'],
  [HOUR, 'h hr hrs hour hours'],
  [MINUTE, 'm min mins minute minutes'],
  [1, 's sec secs second seconds'],
] as const).flatMap(([size, names]) => names.split(' ').map((n) => [n, size] as [string, number])))

/** Seconds, or null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const s = String(text).trim().toLowerCase()
  if (s === '') return null
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s))
  const clock = /^(\d+):(\d{1,2})(?::(\d{1,2}))?$/.exec(s)
  if (clock) {
    const [a, b, c] = [Number(clock[1]), Number(clock[2]), clock[3] === undefined ? null : Number(clock[3])]
    return c === null ? a * MINUTE + b : a * HOUR + b * MINUTE + c
  }
  // ChronicDuration drops filler words and punctuation between the parts.
  const part = /(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*(?:(?:and|,)\s*)?/y
  let total = 0
  let pos = 0
  while (pos < s.length) {
    part.lastIndex = pos
    const m = part.exec(s)
    if (!m) return null
    const unit = m[2] === '' ? 1 : UNITS.get(m[2])
    if (unit === undefined) return null
    total += Number(m[1]) * unit
    pos = part.lastIndex
  }
  return Math.round(total)
}

/** `artifacts:expire_in`: seconds, 'never' to keep forever, or null when the text is not a duration. */
export function expireInSeconds(text: string): number | 'never' | null {
  const s = String(text).trim().toLowerCase()
  if (s === 'never') return 'never'
  return parseDuration(s)
}
