// Runs a synchronous matcher under a time limit. GitLab matches rules patterns with RE2 and fnmatch, which cannot
// backtrack; JavaScript's regular expressions (and the ones picomatch builds from globs) can, for minutes, on a
// pattern and a path or commit message that whoever pushes (or dry-runs lint) chooses. The limit keeps the event
// loop answering; a planning budget stops a file with many such patterns from adding their limits up.
import { performance } from 'node:perf_hooks'
import vm from 'node:vm'
import { ConfigError } from './errors.js'

const context = vm.createContext({ run: null as (() => unknown) | null })
const script = new vm.Script('run()')

export const TOO_SLOW = 'The configuration takes too long to evaluate: a regular expression or glob in it backtracks without end'

/** Time one pipeline's planning may lose to matches stopped at their limit before it gives up with an error. */
export class MatchBudget {
  lostMs = 0
  constructor(readonly limitMs = 2_000) {}
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
