// An index over polka's routes. trouter's `find` tests every route's pattern on every request (about 200 of them
// here); this one tests only the routes whose literal prefix (`/api/v4/projects`) the path starts with, plus the few
// with no such prefix, and returns what trouter would: every match's handlers, in the order they were added.
import type { Polka } from 'polka'

interface TrouterRoute { keys: string[] | false; pattern: RegExp; method: string; handlers: unknown[] }
interface Found { params: Record<string, string>; handlers: unknown[] }

const DEPTH = 3

/** `/api/v4/projects` from `^\/api\/v4\/projects\/([^/]+?)\/?$`: the literal segments before the first parameter. */
function literalPrefix(pattern: RegExp): string[] {
  const source = pattern.source.replace(/^\^/, '')
  // Letters, digits, `_` and `-` only: anything else may be a pattern character (`.` is, unescaped, in regexparam's).
  const literal = /^(?:\\\/[A-Za-z0-9_-]+)*/.exec(source)?.[0] ?? ''
  const segments = literal.split('\\/').slice(1)
  // A segment followed by anything but `\/` or the end may continue in the pattern (`\/users\.json`), so it is not whole.
  const rest = source.slice(literal.length)
  if (segments.length && !/^(?:\\\/|\/\?\$|\$|\\\/\?\$)/.test(rest)) segments.pop()
  return segments
}

// Lower case: regexparam's patterns ignore case, so `/API/V4/Projects` must find the same routes.
function keyOf(segments: string[]) {
  return segments.slice(0, DEPTH).join('/').toLowerCase()
}

function pathKey(path: string): string | null {
  let at = 0
  for (let i = 0; i < DEPTH; i++) {
    at = path.indexOf('/', at + 1)
    if (at < 0) return i === DEPTH - 1 ? path.slice(1).toLowerCase() : null
  }
  return path.slice(1, at).toLowerCase()
}

const METHOD_MATCHES = (route: TrouterRoute, method: string) =>
  route.method === method || route.method === '' || (method === 'HEAD' && route.method === 'GET')

/** Replaces `router.find` with the indexed search; call after every route is added. */
export function indexRoutes(router: Polka) {
  const routes = (router as unknown as { routes: TrouterRoute[] }).routes.map((route, order) => ({ route, order }))
  const buckets = new Map<string, typeof routes>()
  const everywhere: typeof routes = []
  for (const entry of routes) {
    const segments = literalPrefix(entry.route.pattern)
    if (segments.length < DEPTH) {
      everywhere.push(entry)
      continue
    }
    const key = keyOf(segments)
    let bucket = buckets.get(key)
    if (!bucket) buckets.set(key, (bucket = []))
    bucket.push(entry)
  }
  const candidates = new Map<string, TrouterRoute[]>()
  const forKey = (key: string | null): TrouterRoute[] => {
    const cacheKey = key ?? ''
    let list = candidates.get(cacheKey)
    if (!list) {
      const merged = [...(key !== null ? buckets.get(key) ?? [] : []), ...everywhere].sort((a, b) => a.order - b.order)
      candidates.set(cacheKey, (list = merged.map((e) => e.route)))
    }
    return list
  }
  ;(router as unknown as { find: (method: string, path: string) => Found }).find = (method, path) => {
    const params: Record<string, string> = {}
    const handlers: unknown[] = []
    const key = pathKey(path)
    for (const route of forKey(key !== null && buckets.has(key) ? key : null)) {
      if (!METHOD_MATCHES(route, method)) continue
      const m = route.pattern.exec(path)
      if (m === null) continue
      if (route.keys === false) {
        if (m.groups) for (const k in m.groups) params[k] = m.groups[k]
      } else for (let j = 0; j < route.keys.length; ) params[route.keys[j]] = m[++j]
      handlers.push(...route.handlers)
    }
    return { params, handlers }
  }
}
