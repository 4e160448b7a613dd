// GitLab's protected ref names (`ProtectedBranch#matches?`, ProtectedTag's alike): the rule for branches and tags, kept
// apart from the rules' storage so CI's protected variables and the services' permissions match refs the same way.

/**
 * An exact name, or each `*` any run of characters (`/` included), anchored and case-sensitive. A two-pointer walk
 * rather than a regular expression, so a rule of many `*` cannot make it backtrack exponentially.
 */
export function globMatch(pattern: string, name: string): boolean {
  let p = 0
  let n = 0
  let star = -1
  let mark = 0
  while (n < name.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++
      mark = n
    } else if (p < pattern.length && pattern[p] === name[n]) {
      p++
      n++
    } else if (star !== -1) {
      p = star + 1
      n = ++mark
    } else {
      return false
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++
  return p === pattern.length
}

/** The rules whose name matches a ref's short name: protected branches' and protected tags' alike. */
export const matchingRules = <R extends { name: string }>(rules: readonly R[], ref: string) => rules.filter((r) => globMatch(r.name, ref))
