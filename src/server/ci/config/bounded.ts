// Keeps one pipeline's matching affordable. Regular expressions and globs run on RE2 (core/re2, core/glob), whose
// worst case is known before it runs: program size times text length. Each match charges that worst case to the
// pipeline's budget, so a file with many costly patterns over many paths cannot add their costs up past a limit.
import { ConfigError } from './errors.js'

export const TOO_SLOW = 'The configuration takes too long to evaluate: its regular expressions or globs cost too much to match'

/** Worst-case RE2 steps one pipeline's matches may take (a few seconds at most; ordinary files use a small fraction). */
export class MatchBudget {
  work = 0
  constructor(readonly workLimit = 50_000_000) {}
}

let current: MatchBudget | null = null

/** Runs synchronous evaluation charged to `budget` (matches cannot interleave with another pipeline's in between). */
export function charged<T>(budget: MatchBudget | undefined, fn: () => T): T {
  const previous = current
  current = budget ?? null
  try {
    return fn()
  } finally {
    current = previous
  }
}

/** Counts a match's worst-case steps against the budget of the evaluation running now. */
export function chargeWork(steps: number): void {
  if (!current) return
  current.work += steps
  if (current.work > current.workLimit) throw new ConfigError(TOO_SLOW)
}
