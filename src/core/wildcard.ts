// Simple wildcards, GitLab's language for protected branch and tag names, webhook branch filters, broadcast message
// target paths and CI variables' environment scopes: `*` stands for any run of characters, `/` included, everything
// else for itself, and the whole text must match. Kept apart from core/glob (fnmatch on RE2) so that callers of the
// simple form load no regex engine.

/**
 * Whether `text` matches the simple wildcard `pattern`: a two-pointer walk rather than a regular expression, so a
 * pattern of many `*` costs at most pattern length times text length and never backtracks exponentially.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0
  let n = 0
  let star = -1
  let mark = 0
  while (n < text.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++
      mark = n
    } else if (p < pattern.length && pattern[p] === text[n]) {
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

/** A matcher for one simple wildcard, for callers that test many texts against it. */
export const wildcardMatcher = (pattern: string) => (text: string) => wildcardMatch(pattern, text)
