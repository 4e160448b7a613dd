// Password checks a few at a time: scrypt runs on libuv's threadpool, which a flood of guesses must not fill.
import { cpus } from 'node:os'
import { CollabError } from '../../../core/errors.js'
import { verifyPassword } from '../../../core/ids.js'
import type { AppDeps } from '../../context.js'

/**
 * libuv's threadpool has four threads, shared with file reads (isomorphic-git reads repositories through fs) and
 * zlib: half of them at most, and not more than the cores that compute, so a flood of guesses leaves the rest serving.
 */
const IN_FLIGHT = Math.max(1, Math.min(2, cpus().length))
/**
 * Checks beyond IN_FLIGHT wait their turn, as a burst of sign-ins from CI jobs should; past this many waiting, the
 * caller is told to retry, with Rack::Attack's answer (429, `Retry-After`), which GitLab clients already honour.
 */
const WAITING = 64

interface Gate { running: number; waiting: (() => void)[] }

// Per app, as the throttles are: each server (and each test) has its own.
const gates = new WeakMap<AppDeps, Gate>()

const busy = () => new CollabError('PASSWORD_CHECKS_BUSY', 'Retry later', { status: 429, body: { message: 'Retry later' }, headers: { 'Retry-After': '1' } })

/** Whether `password` matches the stored scrypt hash, checked off the event loop and within the gate. */
export async function checkPassword(app: AppDeps, password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false
  let gate = gates.get(app)
  if (!gate) gates.set(app, (gate = { running: 0, waiting: [] }))
  if (gate.running < IN_FLIGHT) gate.running++
  else if (gate.waiting.length >= WAITING) throw busy()
  else await new Promise<void>((resolve) => gate.waiting.push(resolve))
  try {
    return await verifyPassword(password, stored)
  } finally {
    // The slot passes straight to the next in line, so `running` never counts a check that is not running.
    const next = gate.waiting.shift()
    if (next) next()
    else gate.running--
  }
}
