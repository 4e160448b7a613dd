// Waiting in tests for something another process or the event loop brings about: a bounded poll that says what it
// waited for when it gives up, instead of a fixed sleep that is too short on a loaded machine and too long elsewhere.
import { setTimeout as sleep } from 'node:timers/promises'

/** Resolves with `check`'s first truthy answer; throws after `timeoutMs` (generous: a bound, not a speed target). */
export async function until<T>(what: string, check: () => T | Promise<T>, { timeoutMs = 20_000, everyMs = 20 } = {}): Promise<NonNullable<T>> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value as NonNullable<T>
    if (performance.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`)
    await sleep(everyMs)
  }
}
