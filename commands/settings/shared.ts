// What the settings verbs share: how values print, and the warning for names the contract does not know.
import type { IO } from '../../src/cli/io.js'

/** Arrays as the comma lists `settings set` takes; null as nothing. */
export function settingText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.join(',')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** Unknown names are passed on (a newer GitLab may know them; collab ignores them, as GitLab does) with a warning. */
export const warnUnknown = (io: IO, name: string) =>
  io.stderr.write(`warning: unknown setting '${name}'; the server ignores names it does not know\n`)
