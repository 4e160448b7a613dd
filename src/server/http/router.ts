// The HTTP server: a polka app (URL parsing, the prelude every request passes, onNoMatch and onError for GitLab's 404, 405
// and 500) whose one middleware finds the route in find-my-way's radix trees. polka's own router tries every route's
// pattern in turn: with collab's 560 routes that cost 60-90 µs a request here, against 1-4 µs for a tree.
// The trees are built when a request first needs them (route-groups.ts).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ParsedUrlQuery } from 'node:querystring'
import polka from 'polka'
import { RouteGroups } from './route-groups.js'

/** What a handler sees of the request: the raw path, the query string (with its `?`), and URL-decoded path params. */
export interface RouteRequest extends IncomingMessage {
  method: string
  path: string
  search: string
  query: ParsedUrlQuery
  params: Record<string, string>
}

export type RouteHandler = (req: RouteRequest, res: ServerResponse) => unknown

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
const METHODS: readonly RouteMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** A route the radix tree cannot express (git's nested namespaces before `/info/refs`): a pattern with named groups. */
interface PatternRoute { method: RouteMethod; pattern: RegExp; handler: RouteHandler }

interface Match { handler: RouteHandler; params: Record<string, string> }

/** Runs before any route; calling `next()` goes on to it. */
export type Prelude = (req: IncomingMessage, res: ServerResponse, next: () => void) => void

export interface RouterOptions {
  onNoMatch(req: RouteRequest, res: ServerResponse, allowed: RouteMethod[]): void
  onError(err: unknown, req: RouteRequest, res: ServerResponse): void
  prelude?: Prelude
}

// A `%` that starts no escape would make the tree refuse the path; as `%25` the param keeps it literally (`alice%2`).
const strayPercent = /%(?![0-9a-fA-F]{2})/g

export class Router {
  private readonly trees = new RouteGroups()
  private readonly patterns: PatternRoute[] = []

  private readonly app: ReturnType<typeof polka>

  constructor(options: RouterOptions) {
    this.app = polka({
      onNoMatch: (req, res) => options.onNoMatch(req as RouteRequest, res, this.allowed(req.path)),
      onError: (err, req, res) => options.onError(err, req as RouteRequest, res),
    })
    if (options.prelude) this.app.use(options.prelude)
    this.app.use((req, res, next) => {
      const match = this.find(req.method, req.path)
      if (!match) return next()
      req.params = match.params
      return match.handler(req as RouteRequest, res) as void
    })
  }

  /** A path with `:name` params, or a RegExp whose named groups become params. */
  add(method: RouteMethod, path: string | RegExp, handler: RouteHandler): this {
    if (typeof path === 'string') this.trees.add(method, path, handler)
    else this.patterns.push({ method, pattern: path, handler })
    return this
  }

  get(path: string | RegExp, handler: RouteHandler) { return this.add('GET', path, handler) }
  post(path: string | RegExp, handler: RouteHandler) { return this.add('POST', path, handler) }

  /** The route for a method and raw path; HEAD is answered by GET. Params are URL-decoded. */
  find(method: string, path: string): Match | null {
    const m = method === 'HEAD' ? 'GET' : method
    if (!(METHODS as readonly string[]).includes(m)) return null
    const found = this.trees.find(m as RouteMethod, path) ?? (path.includes('%') ? this.trees.find(m as RouteMethod, path.replace(strayPercent, '%25')) : null)
    if (found && !hasEmptyParam(found.params)) return { handler: found.store as RouteHandler, params: found.params as Record<string, string> }
    for (const route of this.patterns) {
      if (route.method !== m) continue
      const groups = route.pattern.exec(path)?.groups
      if (groups) return { handler: route.handler, params: decoded(groups) }
    }
    return null
  }

  /** The methods that have a route for this path: the `Allow` of a 405. */
  allowed(path: string): RouteMethod[] {
    return METHODS.filter((m) => this.find(m, path) !== null)
  }

  /** The request listener: polka parses the URL into `path`, `search` and `query`, then runs the prelude and the route. */
  readonly handler = (req: IncomingMessage, res: ServerResponse) => {
    this.app.handler(req as Parameters<typeof this.app.handler>[0], res, undefined as never)
  }
}

/** A pattern's groups URL-decoded like the tree's params; a broken escape stays as sent. */
function decoded(groups: Record<string, string>) {
  const params: Record<string, string> = {}
  for (const k in groups) {
    try {
      params[k] = decodeURIComponent(groups[k])
    } catch {
      params[k] = groups[k]
    }
  }
  return params
}

/** An empty segment (`/projects//issues`) names nothing. */
function hasEmptyParam(params: Record<string, string | undefined>) {
  for (const k in params) if (params[k] === '') return true
  return false
}
