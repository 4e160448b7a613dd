// How far a moment lies from now in its largest whole unit ("3 days", "1 hour"): the one count behind the CLI's "3 days
// ago", gh-style templates' "about 3 days ago" and the web pages' "1 week ago".

/** A month is 30 days and a year 365, as GitLab's and gh's relative times count them. */
const UNITS: [unit: string, seconds: number, week?: true][] = [
  ['year', 365 * 86400], ['month', 30 * 86400], ['week', 7 * 86400, true], ['day', 86400], ['hour', 3600], ['minute', 60],
]

export interface TimeSpan {
  /** "1 minute", "3 days"; null under a minute. */
  words: string | null
  /** The moment has come (or comes within half a second); false when it lies ahead. */
  past: boolean
}

/**
 * The span between `then` and `now` (milliseconds since the epoch), rounded to whole seconds and counted in whole units
 * of the largest that fits. Weeks count only when asked: GitLab's pages say "2 weeks ago" where gh says "14 days ago".
 */
export function timeSpan(then: number, now: number, opts: { weeks?: boolean } = {}): TimeSpan {
  const seconds = Math.round((now - then) / 1000)
  const size = Math.abs(seconds)
  const unit = UNITS.find(([, length, week]) => size >= length && (!week || opts.weeks))
  if (!unit) return { words: null, past: seconds >= 0 }
  const n = Math.floor(size / unit[1])
  return { words: `${n} ${unit[0]}${n === 1 ? '' : 's'}`, past: seconds >= 0 }
}

/** "just now", "1 minute ago", "3 days ago", "in 2 hours" (a due date or a scheduled job lies ahead). */
export function relativeWords(then: number, now: number, opts: { weeks?: boolean } = {}): string {
  const { words, past } = timeSpan(then, now, opts)
  if (!words) return 'just now'
  return past ? `${words} ago` : `in ${words}`
}
