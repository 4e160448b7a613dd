// Git timestamps rendered the way GitLab renders commit dates: `2024-01-02T03:04:05.000+01:00`.
export function formatGitDate(seconds: number, offsetMinutesEast: number): string {
  const local = new Date((seconds + offsetMinutesEast * 60) * 1000).toISOString().slice(0, 19)
  const sign = offsetMinutesEast < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutesEast)
  return `${local}.000${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/** git's strict ISO form (`%aI`) with milliseconds added. */
export const fromStrictIso = (s: string) => s.replace(/(Z|[+-]\d\d:\d\d)$/, (tz) => `.000${tz === 'Z' ? '+00:00' : tz}`)
