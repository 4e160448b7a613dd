// GitLab's time-tracking durations: `1mo 2w 3d 4h 5m`, `3h30m`, `1.5h`, a bare number in hours; a day is 8 h, a week 5 days, a month 4 weeks.
const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 8 * HOUR
const WEEK = 5 * DAY
const MONTH = 4 * WEEK

// A Map, not an object literal: units come from the client, and `constructor` is a key of every plain object.
const UNITS = new Map<string, number>(Object.entries({
  mo: MONTH, mos: MONTH, month: MONTH, months: MONTH,
  w: WEEK, wk: WEEK, wks: WEEK, week: WEEK, weeks: WEEK,
  d: DAY, day: DAY, days: DAY,
  h: HOUR, hr: HOUR, hrs: HOUR, hour: HOUR, hours: HOUR,
  m: MINUTE, min: MINUTE, mins: MINUTE, minute: MINUTE, minutes: MINUTE,
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
}))

/** Seconds, or null when the text is not a duration. A leading `-` negates (spent time may be subtracted). */
export function parseDuration(text: string): number | null {
  let s = text.trim().toLowerCase()
  const negative = s.startsWith('-')
  if (negative) s = s.slice(1).trim()
  if (s === '') return null
  if (/^\d+(\.\d+)?$/.test(s)) return (negative ? -1 : 1) * Math.round(Number(s) * HOUR)
  const part = /(\d+(?:\.\d+)?|\.\d+)\s*([a-z]+)\s*(?:and\s+|,\s*)?/y
  let total = 0
  let pos = 0
  while (pos < s.length) {
    part.lastIndex = pos
    const m = part.exec(s)
    const unit = m ? UNITS.get(m[2]) : undefined
    if (!m || unit === undefined) return null
    total += Number(m[1]) * unit
    pos = part.lastIndex
  }
  return (negative ? -1 : 1) * Math.round(total)
}

/** `3h 30m`, biggest unit first, zero parts dropped; zero is null. */
export function humanDuration(seconds: number): string | null {
  if (!seconds) return null
  const sign = seconds < 0 ? '-' : ''
  let rest = Math.abs(seconds)
  const parts: string[] = []
  for (const [unit, size] of [['mo', MONTH], ['w', WEEK], ['d', DAY], ['h', HOUR], ['m', MINUTE], ['s', 1]] as const) {
    const n = Math.floor(rest / size)
    rest -= n * size
    if (n) parts.push(`${n}${unit}`)
  }
  return sign + parts.join(' ')
}
