// The HTTP server: a polka app (URL parsing, the prelude every request passes, onNoMatch and onError for GitLab's 404, 405
// and 500) whose one middleware finds the route in find-my-way's radix trees. polka's own router tries every route's
// pattern in turn: with collab's 560 routes that cost 60-90 µs a request here, against 1-4 µs for a tree.
// Building one tree of every route was a fifth of `collab serve`'s start (find-my-way compiles a function per node), so
// routes are kept in groups by the static segments they begin with (`/api/v4/projects`), each group's tree built when a
// request first needs it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ParsedUrlQuery } from 'node:querystring'
import FindMyWay from 'find-my-way'
import polka from 'polka'

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

const noop = () => {}

// GitLab matches API paths case-insensitively and with or without a trailing slash; params keep their case.
const newTree = () => FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 65_536 })
type Tree = ReturnType<typeof newTree>
interface Route { method: RouteMethod; path: string; handler: RouteHandler }
interface Group { routes: Route[]; tree?: Tree }

/** Segments that name a group: `/api/v4/<resource>` keeps each API resource apart. */
const DEPTH = 3

/**
 * Routes grouped by their first static segments, each group a find-my-way tree built on first use. A group's key is its
 * static segments, lower-cased, each followed by `/`, and a final `:` when a param comes next. Asking the groups a path
 * could fall in from the most static to the least, and stopping at the first match, walks the routes in the order one
 * tree of all of them would (static children before params, backtracking to the params above): the same route is found.
 */
class RouteGroups {
  private readonly groups = new Map<string, Group>()
  /** Every route, for the rare path whose first segments need decoding before they can be compared (`/%61pi/v4`). */
  private readonly all: Group = { routes: [] }

  add(method: RouteMethod, path: string, handler: RouteHandler) {
    const key = groupKeyOf(path)
    let group = this.groups.get(key)
    if (!group) this.groups.set(key, (group = { routes: [] }))
    for (const g of [group, this.all]) {
      const route = { method, path, handler }
      g.routes.push(route)
      if (g.tree) plant(g.tree, route)
    }
  }

  find(method: RouteMethod, path: string) {
    const keys = candidateKeys(path)
    if (!keys) return treeOf(this.all).find(method, path)
    for (const key of keys) {
      const group = this.groups.get(key)
      const found = group && treeOf(group).find(method, path)
      if (found) return found
    }
    return null
  }
}

// The handler rides as the route's store: find-my-way's own handler type is node's bare request.
const plant = (tree: Tree, r: Route) => tree.on(r.method, r.path, noop, r.handler)

function treeOf(group: Group): Tree {
  if (!group.tree) {
    group.tree = newTree()
    for (const route of group.routes) plant(group.tree, route)
  }
  return group.tree
}

const isParam = (segment: string) => segment.includes(':') || segment.includes('*')

function groupKeyOf(path: string): string {
  // find-my-way reads `::` as a literal colon and `:name?` as an optional param: neither fits a group by segments.
  if (/::|\?/.test(path) || !path.startsWith('/')) throw new Error(`route ${path}: escaped colons and optional params are not supported`)
  const segments = trimLastSlash(path).slice(1).split('/')
  let key = ''
  for (let i = 0; i < Math.min(DEPTH, segments.length); i++) {
    if (isParam(segments[i])) return `${key}:`
    key += `${segments[i].toLowerCase()}/`
  }
  return key
}

/**
 * The groups a request path may be in, most static first: its first segments as they are, then with a param in place
 * of the last of them, then of the one before, and so on. Null when those segments hold what find-my-way decodes or
 * cuts at (`%`, `?`, `#`, `;`) or the path is not absolute: then every route is asked at once.
 */
function candidateKeys(path: string): string[] | null {
  if (!path.startsWith('/')) return null
  const segments = trimLastSlash(path).slice(1).split('/', DEPTH)
  const prefixes = ['']
  for (const segment of segments) {
    if (/[%?#;]/.test(segment)) return null
    prefixes.push(`${prefixes[prefixes.length - 1]}${segment.toLowerCase()}/`)
  }
  const keys = [prefixes[segments.length]]
  for (let i = segments.length - 1; i >= 0; i--) keys.push(`${prefixes[i]}:`)
  return keys
}

/** As find-my-way compares paths with `ignoreTrailingSlash`: one trailing `/` dropped. */
const trimLastSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path)

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
