// Routes requests to handlers through find-my-way's public interface, with GitLab's 404 and 405 answers.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring'
import FindMyWay from 'find-my-way'

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

export interface RouterOptions {
  onNoMatch(req: RouteRequest, res: ServerResponse, allowed: RouteMethod[]): void
  onError(err: unknown, req: RouteRequest, res: ServerResponse): void
}

// A `%` that starts no escape would make the tree refuse the path; as `%25` the param keeps it literally (`alice%2`).
const strayPercent = /%(?![0-9a-fA-F]{2})/g

export class Router {
  // GitLab matches API paths case-insensitively and with or without a trailing slash; params keep their case.
  private readonly tree = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 65_536 })
  private readonly patterns: PatternRoute[] = []

  constructor(private readonly options: RouterOptions) {}

  /** A path with `:name` params, or a RegExp whose named groups become params. */
  add(method: RouteMethod, path: string | RegExp, handler: RouteHandler): this {
    // The handler rides as the route's store: find-my-way's own handler type is node's bare request.
    if (typeof path === 'string') this.tree.on(method, path, noop, handler)
    else this.patterns.push({ method, pattern: path, handler })
    return this
  }

  get(path: string | RegExp, handler: RouteHandler) { return this.add('GET', path, handler) }
  post(path: string | RegExp, handler: RouteHandler) { return this.add('POST', path, handler) }

  /** The route for a method and raw path; HEAD is answered by GET. Params are URL-decoded. */
  find(method: string, path: string): Match | null {
    const m = method === 'HEAD' ? 'GET' : method
    if (!(METHODS as readonly string[]).includes(m)) return null
    const found = this.tree.find(m as RouteMethod, path) ?? (path.includes('%') ? this.tree.find(m as RouteMethod, path.replace(strayPercent, '%25')) : null)
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

  readonly handler = (incoming: IncomingMessage, res: ServerResponse) => {
    const req = incoming as RouteRequest
    const raw = req.url ?? '/'
    // A fragment is the client's business; a raw client may still send one.
    const hash = raw.indexOf('#')
    const url = hash < 0 ? raw : raw.slice(0, hash)
    const at = url.indexOf('?')
    req.path = at < 0 ? url : url.slice(0, at)
    req.search = at < 0 ? '' : url.slice(at)
    req.query = req.search.length > 1 ? parseQuery(req.search.slice(1)) : {}
    const match = this.find(req.method, req.path)
    if (!match) {
      req.params = {}
      this.options.onNoMatch(req, res, this.allowed(req.path))
      return
    }
    req.params = match.params
    try {
      const result = match.handler(req, res)
      if (result instanceof Promise) result.catch((err) => this.options.onError(err, req, res))
    } catch (err) {
      this.options.onError(err, req, res)
    }
  }
}

const noop = () => {}

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
