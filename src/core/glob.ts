// GitLab's simple wildcards (webhook branch filters, broadcast message target paths): `*` stands for any run of
// characters, everything else for itself, and the pattern must match the whole text. Matched on RE2: a JavaScript
// regular expression of many `.*` backtracks polynomially on a long text without a match.
import { userPattern } from './re2.js'

/** Whether `text` matches the wildcard (false when the match would cost more than RE2's work limit). */
export function wildcardMatcher(glob: string): (text: string) => boolean {
  const re = userPattern(`^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`)
  return (text) => re?.test(text) ?? false
}
