// Ruby's File.fnmatch? with FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB, as GitLab's CI matches paths with it (`changes:`,
// `exists:`, include globs): translated to RE2, so a pattern whoever pushes writes cannot backtrack; matching is linear
// in the text. The other wildcard language, GitLab's simple `*` names, is core/wildcard.
import { userPattern, type UserPattern } from './re2.js'

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
