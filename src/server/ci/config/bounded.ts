// Runs a synchronous matcher under a time limit. GitLab matches rules patterns with RE2 and fnmatch, which cannot
// backtrack; JavaScript's regular expressions (and the ones picomatch builds from globs) can, for minutes, on a
// pattern and a path or commit message that whoever pushes chooses. The limit keeps the event loop answering.
import vm from 'node:vm'

const context = vm.createContext({ run: null as (() => unknown) | null })
const script = new vm.Script('run()')

/** `fn()`'s result, or undefined when it ran past `ms` milliseconds (V8 stops it where it is). */
export function bounded<T>(fn: () => T, ms: number): T | undefined {
  context.run = fn
  try {
    return script.runInContext(context, { timeout: ms }) as T
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined
    throw e
  } finally {
    context.run = null
  }
}
