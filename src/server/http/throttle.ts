// GitLab's request limits from the application settings: the Rack::Attack throttles (API calls per user, anonymous
// requests per IP) and the unique-IPs limit per user.
import type { IncomingMessage } from 'node:http'
import { CollabError, forbidden } from '../../core/errors.js'
import type { AppDeps, Caller } from '../context.js'
import { currentSettings } from '../services/instance/application-settings.js'

type ThrottleName = 'throttle_authenticated_api' | 'throttle_unauthenticated'

interface Counter { window: number; count: number }

// Per app, so each server (and each test) counts alone; fixed windows aligned on the epoch, as Rack::Attack counts.
const counters = new WeakMap<AppDeps, Map<string, Counter>>()
const PRUNE_AT = 10_000

function limits(app: AppDeps, name: ThrottleName) {
  const s = currentSettings(app)
  if (name === 'throttle_authenticated_api') {
    return s.throttle_authenticated_api_enabled ? { period: s.throttle_authenticated_api_period_in_seconds, limit: s.throttle_authenticated_api_requests_per_period } : null
  }
  return s.throttle_unauthenticated_enabled ? { period: s.throttle_unauthenticated_period_in_seconds, limit: s.throttle_unauthenticated_requests_per_period } : null
}

/**
 * GitLab's throttled answer: 429 with `Retry-After` (python-gitlab waits that long and retries) and the `RateLimit-*`
 * headers (`RateLimit-Reset` is the client's fallback); the limit header is per minute, as GitLab rounds it.
 */
function throttled(name: ThrottleName, period: number, limit: number, observed: number, now: number) {
  const retryAfter = period - (now % period)
  const reset = now + retryAfter
  return new CollabError('THROTTLED', 'Retry later', {
    status: 429,
    body: { message: 'Retry later' },
    headers: {
      'Retry-After': String(retryAfter),
      'RateLimit-Name': name,
      'RateLimit-Limit': String(Math.ceil((limit * 60) / period)),
      'RateLimit-Observed': String(observed),
      'RateLimit-Remaining': String(Math.max(limit - observed, 0)),
      'RateLimit-Reset': String(reset),
      'RateLimit-ResetTime': new Date(reset * 1000).toUTCString(),
    },
  })
}

function count(app: AppDeps, name: ThrottleName, discriminator: string) {
  const rule = limits(app, name)
  if (!rule) return
  const now = Math.floor(app.clock.now().getTime() / 1000)
  const window = Math.floor(now / rule.period)
  let map = counters.get(app)
  if (!map) counters.set(app, (map = new Map()))
  const key = `${name}:${rule.period}:${discriminator}`
  let counter = map.get(key)
  if (!counter || counter.window !== window) {
    if (map.size >= PRUNE_AT) for (const [k, c] of map) if (c.window !== window) map.delete(k)
    map.set(key, (counter = { window, count: 0 }))
  }
  counter.count++
  if (counter.count > rule.limit) throw throttled(name, rule.period, rule.limit, counter.count, now)
}

const peer = (req: IncomingMessage) => req.socket.remoteAddress ?? ''

// user id -> IP -> last seen (ms); per app, like the counters.
const userIps = new WeakMap<AppDeps, Map<number, Map<string, number>>>()

/**
 * unique_ips_limit_*: a user seen from more IPs than allowed within the window is refused (GitLab's UniqueIpsLimiter,
 * which records the new IP first, so every IP is refused until old ones age out; the API answers a bare 403).
 */
function limitUniqueIps(app: AppDeps, userId: number, ip: string) {
  const s = currentSettings(app)
  if (!s.unique_ips_limit_enabled) return
  const now = app.clock.now().getTime()
  let byUser = userIps.get(app)
  if (!byUser) userIps.set(app, (byUser = new Map()))
  let ips = byUser.get(userId)
  if (!ips) byUser.set(userId, (ips = new Map()))
  ips.set(ip, now)
  for (const [seen, at] of ips) if (now - at > s.unique_ips_limit_time_window * 1000) ips.delete(seen)
  if (ips.size > s.unique_ips_limit_per_user) throw forbidden()
}

/** Counts a request nobody authenticated (per IP) against throttle_unauthenticated_*. */
export const throttleAnonymous = (app: AppDeps, req: IncomingMessage) => count(app, 'throttle_unauthenticated', peer(req))

/**
 * Authenticates through `authenticate` and counts the request: per user (the token's owner, also under sudo) for an
 * authenticated API call, with its IP against the unique-IPs limit; per IP otherwise. Rejected credentials count as
 * anonymous, so guessing tokens is throttled too.
 */
export function authenticateThrottled(app: AppDeps, req: IncomingMessage, authenticate: () => Caller): Caller {
  let caller: Caller
  try {
    caller = authenticate()
  } catch (err) {
    if (err instanceof CollabError && err.status === 401) throttleAnonymous(app, req)
    throw err
  }
  const user = caller.sudoer ?? caller.user
  if (user) {
    count(app, 'throttle_authenticated_api', `user:${user.id}`)
    limitUniqueIps(app, user.id, peer(req))
  } else throttleAnonymous(app, req)
  return caller
}
