// The two wildcard languages GitLab matches paths and names with, in one place.
// - Simple wildcards (protected branch and tag names, webhook branch filters, broadcast message target paths): `*`
//   stands for any run of characters, `/` included, everything else for itself, and the whole text must match.
// - Ruby's File.fnmatch? with FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB (CI's `changes:` and `exists:`, include
//   globs): translated to RE2, so a pattern whoever pushes writes cannot backtrack; matching is linear in the text.
import { userPattern, type UserPattern } from './re2.js'

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

const escape = (c: string) => c.replace(/[.+?^${}()|[\]\\*]/g, '\\$&')

// Braces nest; each `{` opens an alternation that its matching `}` closes, with `,` at its own depth separating.
// An unbalanced brace is a literal character, as fnmatch reads it.
function closingBrace(glob: string, open: number): number {
  let depth = 0
  for (let i = open; i < glob.length; i++) {
    const c = glob[i]
    if (c === '\\') i++
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return i
  }
  return -1
}

function splitAlternatives(body: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c === '\\') i++
    else if (c === '{') depth++
    else if (c === '}') depth--
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i))
      start = i + 1
    }
  }
  parts.push(body.slice(start))
  return parts
}

// A bracket expression: `[!…]` or `[^…]` negates; under FNM_PATHNAME no class matches `/`. Unclosed, `[` is literal.
function bracket(glob: string, open: number): { source: string; end: number } | null {
  let i = open + 1
  const negated = glob[i] === '!' || glob[i] === '^'
  if (negated) i++
  let body = ''
  let first = true
  for (; i < glob.length; i++) {
    const c = glob[i]
    if (c === ']' && !first) {
      if (body === '') return null
      return { source: negated ? `[^${body}/]` : `[${body}]`, end: i }
    }
    first = false
    if (c === '\\' && i + 1 < glob.length) body += escapeInClass(glob[++i])
    else if (c === '-' && body !== '' && glob[i + 1] !== ']') body += '-'
    else if (c !== '/') body += escapeInClass(c)
  }
  return null
}

const escapeInClass = (c: string) => (/[\]\\^[-]/.test(c) ? `\\${c}` : c)

function translate(glob: string): string {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*') {
      if (glob[i + 1] === '*' && glob[i + 2] === '/' && (i === 0 || glob[i - 1] === '/')) {
        out += '(?:[^/]*/)*'
        i += 2
      } else {
        while (glob[i + 1] === '*') i++
        out += '[^/]*'
      }
    } else if (c === '?') out += '[^/]'
    else if (c === '\\' && i + 1 < glob.length) out += escape(glob[++i])
    else if (c === '[') {
      const cls = bracket(glob, i)
      if (cls) {
        out += cls.source
        i = cls.end
      } else out += '\\['
    } else if (c === '{') {
      const close = closingBrace(glob, i)
      if (close === -1) out += '\\{'
      else {
        out += `(?:${splitAlternatives(glob.slice(i + 1, close)).map(translate).join('|')})`
        i = close
      }
    } else out += escape(c)
  }
  return out
}

/** The fnmatch glob as an RE2 pattern over whole paths, or null when it is unusable (too large for RE2). */
export function fnmatchPattern(glob: string): UserPattern | null {
  return userPattern(`^${translate(glob)}$`)
}
