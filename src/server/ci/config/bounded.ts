// Keeps one pipeline's matching affordable. Globs: GitLab matches them with fnmatch, which cannot backtrack; the
// regular expressions picomatch builds from them can, for minutes, on a pattern and a path that whoever pushes (or
// dry-runs lint) chooses, so each runs under a time limit. Regular expressions run on RE2 (core/re2), whose worst
// case is known before it runs; each charges that worst case. A planning budget of both stops a file with many
// costly patterns from adding their costs up.
import { performance } from 'node:perf_hooks'
import vm from 'node:vm'
import { ConfigError } from './errors.js'

const context = vm.createContext({ run: null as (() => unknown) | null })
const script = new vm.Script('run()')

export const TOO_SLOW = 'The configuration takes too long to evaluate: its regular expressions or globs cost too much to match'

/**
 * Time one pipeline's planning may lose to glob matches stopped at their limit, and worst-case RE2 steps its
 * regular expressions may take (a few seconds at most; ordinary files use a small fraction), before it gives up.
 */
export class MatchBudget {
  lostMs = 0
  work = 0
  constructor(readonly limitMs = 2_000, readonly workLimit = 50_000_000) {}
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

/** Counts a regular expression's worst-case steps against the budget of the evaluation running now. */
export function chargeWork(steps: number): void {
  if (!current) return
  current.work += steps
  if (current.work > current.workLimit) throw new ConfigError(TOO_SLOW)
}

/** `fn()`'s result, or undefined when it ran past `ms` (V8 stops it where it is); throws once the budget is spent. */
export function bounded<T>(fn: () => T, ms: number): T | undefined {
  const started = performance.now()
  context.run = fn
  try {
    return script.runInContext(context, { timeout: ms }) as T
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e
    if (current) {
      current.lostMs += performance.now() - started
      if (current.lostMs > current.limitMs) throw new ConfigError(TOO_SLOW)
    }
    return undefined
  } finally {
    context.run = null
  }
}
