// Background work (forks, later CI) that outlives the request; close() waits for it so shutdown loses nothing.
import type { Logger } from '../core/logger.js'

export interface TaskQueue {
  run(name: string, fn: () => Promise<void> | void): void
  idle(): Promise<void>
}

export function createTaskQueue(log: Logger): TaskQueue {
  const pending = new Set<Promise<void>>()
  return {
    run(name, fn) {
      const p = new Promise<void>((resolve) => setImmediate(resolve))
        .then(fn)
        .catch((err) => log.error(`background task ${name} failed`, err))
        .finally(() => pending.delete(p))
      pending.add(p)
    },
    async idle() {
      while (pending.size) await Promise.all([...pending])
    },
  }
}
