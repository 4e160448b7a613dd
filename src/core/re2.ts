// Regular expressions that users write (CI rules, only/except refs, coverage, hook branch filters, branch search) run
// on RE2, as GitLab's Gitlab::UntrustedRegexp does: linear time, so no pattern can backtrack for minutes. Linear is
// still program size times text length when RE2's DFA gives up and its NFA runs, so a match whose worst case
// passes a work limit is not run: it answers undecided (null), and callers count that as no match.
import { RE2JS } from 're2js'
import { estimatedProgramSize } from './re2-size.js'

/** Worst-case steps (program instructions times text characters) one match may take: well under a second. */
export const MATCH_WORK_LIMIT = 10_000_000

/** The largest program a user's pattern may compile to (a few tens of milliseconds to compile). */
export const MAX_PROGRAM_SIZE = 10_000
const TOO_LARGE = 'pattern too large - compile failed'

export interface UserPattern {
  /** RE2's instruction count: with the text's length, it bounds what a match costs. */
  readonly size: number
  /** Whether the pattern matches somewhere in `text`; null when the match would cost more than the limit. */
  test(text: string): boolean | null
  /** The first match and its groups (undefined for a group that took no part); null for none or too costly. */
  exec(text: string): Array<string | undefined> | null
}

const cache = new Map<string, UserPattern | string>()
const CACHE_SIZE = 500

/**
 * RE2 refuses what it cannot run in linear time (look-around, backreferences), nests repeats at most to 1000, and
 * refuses a program past its memory budget, in its own words; ours is smaller, and checked before compiling too.
 */
function compile(source: string): UserPattern | string {
  if (estimatedProgramSize(source) > MAX_PROGRAM_SIZE) return TOO_LARGE
  let re: RE2JS
  try {
    re = RE2JS.compile(source)
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
  const size = re.programSize()
  if (size > MAX_PROGRAM_SIZE) return TOO_LARGE
  const affordable = (text: string) => size * Math.max(text.length, 1) <= MATCH_WORK_LIMIT
  return {
    size,
    test: (text) => (affordable(text) ? re.test(text) : null),
    exec: (text) => {
      if (!affordable(text)) return null
      const m = re.exec(text)
      return m ? Array.from(m, (g: string | null | undefined) => g ?? undefined) : null
    },
  }
}

/** The compiled pattern, or RE2's reason for refusing it (`error parsing regexp: missing closing ): ...`). */
export function compileUserPattern(source: string): UserPattern | string {
  const hit = cache.get(source)
  if (hit !== undefined) return hit
  const compiled = compile(source)
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
  cache.set(source, compiled)
  return compiled
}

/** The pattern, or null when RE2 refuses it. */
export function userPattern(source: string): UserPattern | null {
  const compiled = compileUserPattern(source)
  return typeof compiled === 'string' ? null : compiled
}

// Gitlab::UntrustedRegexp::RubySyntax: `/body/flags`, the flags RE2's own (i, s, m, U) put in front as `(?flags)`.
const SLASHED = /^\/(.*)\/([ismU]*)$/s

/** A pattern's body with its flags, or null when RE2 refuses it. */
export const flaggedPattern = (body: string, flags: string) => userPattern(flags ? `(?${flags})${body}` : body)

/** A `/pattern/flags` text as GitLab reads it, or null when it is not one or RE2 refuses it. */
export function slashedPattern(text: string): UserPattern | null {
  const m = SLASHED.exec(text)
  return m ? flaggedPattern(m[1], m[2]) : null
}

/** Whether a text has the `/pattern/flags` form, valid or not (GitLab's RubySyntax.matches_syntax?). */
export const isSlashed = (text: string) => SLASHED.test(text)
