// Mounts every contract endpoint on the router: query+body+path merged, authenticated, validated, handled, written.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import type { Contract, Endpoint, EndpointInput, Method } from '../../contract/define.js'
import { forbidden, unauthorized } from '../../core/errors.js'
import type { AppDeps, Caller, HandlerResult, RequestContext, StoredBody } from '../context.js'
import { committed, writeGeneration } from '../store/db.js'
import { failedSince } from '../store/writes.js'
import { currentSettings, maxAttachmentBytes } from '../services/instance/application-settings.js'
import { genericPackagesMaxFileSize } from '../services/instance/plan-limits.js'
import { checkScope } from '../services/users/auth.js'
import { authenticateRequest } from './auth.js'
import { withByteRange } from './byte-range.js'
import { parseParams, readRaw, readRawToFile } from './body.js'
import { normalizePage, paginationHeaders } from './pagination.js'
import type { RouteRequest, Router } from './router.js'
import { JSON_TYPE, jsonResponse, sendError } from './respond.js'
import { cachedResponse, rememberResponse, type CachedResponse } from './response-cache.js'
import { noneGiven, validationError } from './validate.js'

export const API_PREFIX = '/api/v4'
export const BODY_LIMIT = 20 * 1024 * 1024

export type Handler<E> = (input: EndpointInput<E>, ctx: RequestContext) => HandlerResult | Promise<HandlerResult>
export type Handlers<C extends Contract> = { [K in keyof C]: Handler<C[K]> }

type Req = RouteRequest
type AnyHandler = (input: any, ctx: RequestContext) => HandlerResult | Promise<HandlerResult>

/** An IPv4 peer of a dual-stack socket shows as `::ffff:10.0.0.1`; `--trusted-proxy 10.0.0.1` means it too. */
const plainAddress = (address: string) => (address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address)

/** `http://host:port` as the client addressed us; `https` only when a trusted proxy says the client used it. */
export function baseUrlOf(app: AppDeps, req: IncomingMessage): string {
  const host = req.headers.host ?? 'localhost'
  const proxies = app.trustedProxies
  if (!proxies?.length) return `http://${host}`
  const forwarded = req.headers['x-forwarded-proto']
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded ?? '').split(',')[0].trim().toLowerCase()
  const trusted = first === 'https' && proxies.some((p) => plainAddress(p) === plainAddress(req.socket.remoteAddress ?? ''))
  return `${trusted ? 'https' : 'http'}://${host}`
}

const HAS_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Waits for the group transaction holding this request's writes: a response never reports what is not yet saved.
 * With `since` (the write clock when the request began), a group that already failed while the request awaited
 * something else is heard of too, not only the one still open.
 */
export async function afterCommit(app: AppDeps, since?: number) {
  const pending = committed(app.db)
  if (pending) await pending
  if (since !== undefined && failedSince(app.db, since)) throw new Error('a group transaction holding writes of this request failed to commit')
}

const DAY_MS = 86_400_000

/**
 * The response-cache key of a cacheable GET: who asks (the effective user; sudo included), how they addressed us
 * (URLs in bodies and Link headers are built on it), the whole URL, and the day (a milestone's `expired` turns at midnight).
 */
function cacheKey(app: AppDeps, endpoint: Endpoint, req: Req, params: Record<string, unknown>, caller: Caller, baseUrl: string): string | undefined {
  const rule = endpoint.cacheable
  if (!rule || app.responseCache === false || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined
  if (typeof rule === 'function' && !rule(params)) return undefined
  const day = Math.floor(app.clock.now().getTime() / DAY_MS)
  // A job token reads as its user but only in its own project: its answers are kept apart from the user's.
  const who = caller.job ? `${caller.user?.id ?? 0}j${caller.job.project_id}` : caller.user?.id ?? 0
  return `${who}|${day}|${baseUrl}|${req.url}`
}

function write(res: ServerResponse, r: CachedResponse) {
  if (res.headersSent) return
  res.writeHead(r.status, r.headers)
  res.end(r.body)
}

/** Copies `from` into `into` as data: a `__proto__` key (JSON.parse makes it an own key) stays a key, not a prototype. */
function mergeInto(into: Record<string, unknown>, from: Record<string, unknown>) {
  for (const k of Object.keys(from)) {
    if (k === '__proto__') Object.defineProperty(into, k, { value: from[k], enumerable: true, writable: true, configurable: true })
    else into[k] = from[k]
  }
}

/**
 * An endpoint that takes uploads to disk (a job's artifacts, a package file) gets a directory of its own for the
 * request's files, next to where they are kept (a move, not a copy), and removed with whatever the handler did not take.
 */
async function serve(app: AppDeps, endpoint: Endpoint, handler: AnyHandler, req: Req, res: ServerResponse) {
  if (!endpoint.uploadsToDisk || !HAS_BODY.has(req.method)) return serveWith(app, endpoint, handler, req, res)
  const home = endpoint.uploadsToDisk === 'packages' ? app.layout.packages : app.layout.artifacts
  await mkdir(home, { recursive: true })
  const incoming = await mkdtemp(join(home, '.incoming-'))
  try {
    return await serveWith(app, endpoint, handler, req, res, incoming)
  } finally {
    await rm(incoming, { recursive: true, force: true })
  }
}

async function serveWith(app: AppDeps, endpoint: Endpoint, handler: AnyHandler, req: Req, res: ServerResponse, incoming?: string) {
  const params = req.search ? parseParams(req.search.slice(1)) : {}
  const needsCaller = endpoint.auth !== 'public' && endpoint.auth !== 'optional'
  // A raw body (a job's log chunk) is read after authentication, as bytes rather than parameters; a raw upload to disk
  // (a package file) when the handler asks for it. Files written to disk may weigh what diskUploadLimit says.
  const limits = !HAS_BODY.has(req.method) || endpoint.rawBody ? null
    : incoming ? { limit: BODY_LIMIT, fileLimit: diskUploadLimit(app, endpoint), toDir: incoming }
    : { limit: BODY_LIMIT, fileLimit: maxAttachmentBytes(app) }
  const { caller, body } = await authenticateRequest(app, req, res, params, needsCaller, limits, endpoint.jobToken === true, endpoint.basicAuth === true)
  const rawBody = endpoint.rawBody && !incoming ? await readRaw(req, BODY_LIMIT) : undefined
  const receiveBody = endpoint.rawBody && incoming ? bodyReceiver(app, endpoint, req, incoming) : undefined
  mergeInto(params, body)
  mergeInto(params, req.params)
  if (!caller.user && needsCaller) throw unauthorized()
  if (endpoint.auth === 'admin' && !caller.user?.is_admin) throw forbidden()
  checkScope(caller, endpoint.scope)
  const baseUrl = baseUrlOf(app, req)
  const key = cacheKey(app, endpoint, req, params, caller, baseUrl)
  const hit = key === undefined ? undefined : cachedResponse(app.db, key)
  if (hit) {
    await afterCommit(app)
    return write(res, hit)
  }
  const parsed = endpoint.schema.safeParse(params)
  if (!parsed.success) throw validationError(parsed.error.issues, params)
  const none = endpoint.atLeastOneOf && noneGiven(endpoint.atLeastOneOf, params)
  if (none) throw none
  const input = parsed.data as Record<string, unknown>
  // One literal, not a spread of the caller: on Node 20 spreading into a larger literal is slow (see present/projects.ts).
  const ctx: RequestContext = {
    user: caller.user, token: caller.token, scopes: caller.scopes, sudoer: caller.sudoer, job: caller.job ?? null,
    app, baseUrl, apiUrl: baseUrl + API_PREFIX, page: normalizePage(input.page, input.per_page),
    client: { userAgent: String(req.headers['user-agent'] ?? ''), ip: req.socket.remoteAddress ?? '' },
    headers: endpoint.headers && declaredHeaders(req, endpoint.headers), rawBody, receiveBody, aborted: endpoint.longPoll ? abortSignalOf(res) : undefined,
  }
  const generation = writeGeneration(app.db)
  const result = await handledBeforeItsBody(handler, input, ctx, req, res)
  let headers = result.headers ?? {}
  if (endpoint.paginated && (result.total !== undefined || result.hasNextPage !== undefined)) {
    const { page, perPage } = ctx.page
    headers = { ...headers, ...paginationHeaders({ baseUrl, path: req.path, search: req.search, page, perPage, total: result.total, hasNextPage: result.hasNextPage }) }
  }
  await afterCommit(app, req.method === 'GET' || req.method === 'HEAD' ? undefined : generation)
  if (result.stream) return sendStream(res, result.status, headers, result.stream, req.method === 'HEAD')
  if (result.raw !== undefined) {
    const answer = withByteRange(req.method, req.headers.range, { status: result.status, headers, raw: result.raw })
    res.writeHead(answer.status, answer.headers)
    res.end(req.method === 'HEAD' ? undefined : answer.raw)
    return
  }
  const response = jsonResponse(result.status, result.body, headers)
  write(res, response)
  if (key !== undefined && result.status === 200) rememberResponse(app.db, key, generation, response)
}

/** What a file uploaded to disk may weigh: max_artifacts_size (MiB) for artifacts, the plan limit for packages. */
const diskUploadLimit = (app: AppDeps, endpoint: Endpoint) =>
  endpoint.uploadsToDisk === 'packages' ? genericPackagesMaxFileSize(app) : currentSettings(app).max_artifacts_size * 1024 * 1024

/**
 * A raw upload is read when the handler asks, after its checks, as Workhorse asks Rails to authorize an upload before
 * it takes the bytes: a refused caller never makes us store a file.
 */
function bodyReceiver(app: AppDeps, endpoint: Endpoint, req: Req, incoming: string): () => Promise<StoredBody> {
  let received: Promise<StoredBody> | undefined
  return () => (received ??= readRawToFile(req, diskUploadLimit(app, endpoint), join(incoming, 'body')))
}

/** The handler's answer; one refused before it read the upload closes the connection, so the rest is never read. */
async function handledBeforeItsBody(handler: AnyHandler, input: Record<string, unknown>, ctx: RequestContext, req: Req, res: ServerResponse) {
  try {
    return await handler(input, ctx)
  } catch (err) {
    if (ctx.receiveBody && !req.complete) res.setHeader('Connection', 'close')
    throw err
  }
}

/** The request headers an endpoint declared, each as one string. */
function declaredHeaders(req: Req, names: readonly string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const name of names) {
    const v = req.headers[name]
    out[name] = Array.isArray(v) ? v.join(', ') : v
  }
  return out
}

/** Aborted when the client hangs up before the answer: a long poll stops waiting for nobody. */
function abortSignalOf(res: ServerResponse): AbortSignal {
  const controller = new AbortController()
  res.once('close', () => controller.abort())
  return controller.signal
}

/** Pipes a streamed body (a 100 MB archive is never held in memory); a client that hangs up stops the read. */
function sendStream(res: ServerResponse, status: number, headers: Record<string, string>, body: Readable, head: boolean) {
  if (head) {
    body.destroy()
    res.writeHead(status, headers)
    res.end()
    return
  }
  body.once('error', () => res.destroy())
  res.once('close', () => body.destroy())
  res.writeHead(status, headers)
  body.pipe(res)
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The route of an endpoint: its path, or for one with `greedy` params (`ref_name` with real slashes) a pattern whose
 * greedy params take any run of segments, matched case-insensitively like the tree.
 */
function routeOf(endpointPath: string, greedy: readonly string[] | undefined): string | RegExp {
  const path = API_PREFIX + endpointPath
  if (!greedy?.length) return path
  const source = path.split(/(:\w+)/).map((part) => {
    if (!part.startsWith(':')) return escapeRegExp(part)
    const name = part.slice(1)
    return greedy.includes(name) ? `(?<${name}>.+?)` : `(?<${name}>[^/]+)`
  }).join('')
  return new RegExp(`^${source}/?$`, 'i')
}

/** An endpoint as the route list names it: its name in its group, method, path, and the params that take slashes. */
export type ContractRoute = readonly [name: string, method: Method, path: string, greedy?: readonly string[]]

/** A contract group as the server knows it at start: its routes, and the import of its declarations. */
export interface RouteGroup {
  load: () => Promise<Record<string, unknown>>
  routes: readonly ContractRoute[]
}

type Served = Map<string, { endpoint: Endpoint; handler: AnyHandler }>

const isEndpoint = (v: unknown): v is Endpoint => typeof v === 'object' && v !== null && 'method' in v && 'path' in v

/**
 * A group's endpoints with their handlers, checked against the route list the group was mounted by: a list older than
 * the declarations would route a request by another method or path than the endpoint declares, or leave one unrouted.
 */
function served(group: string, routes: readonly ContractRoute[], declarations: Record<string, unknown>, handlers: Record<string, AnyHandler>): Served {
  const declared = Object.keys(declarations).filter((name) => isEndpoint(declarations[name]))
  const out: Served = new Map()
  for (const [name, method, path, greedy] of routes) {
    const endpoint = declarations[name]
    const handler = handlers[name]
    if (!isEndpoint(endpoint) || endpoint.method !== method || endpoint.path !== path || String(endpoint.greedy ?? []) !== String(greedy ?? [])) {
      throw new Error(`the route list names ${group}.${name} as ${method} ${path}, which its declaration does not say: run node scripts/registries.mjs`)
    }
    if (typeof handler !== 'function') throw new Error(`no handler for endpoint ${group}.${name} (${method} ${path})`)
    out.set(name, { endpoint, handler })
  }
  const unrouted = declared.filter((name) => !out.has(name)).sort()
  if (unrouted.length) throw new Error(`the route list lacks ${unrouted.map((name) => `${group}.${name}`).join(', ')}: run node scripts/registries.mjs`)
  return out
}

/**
 * Mounts every route of every group. A group's declarations (their zod schemas) and handlers are imported when a
 * request first reaches the group, and every later request finds them ready, with no promise in between.
 */
export function mountContract(router: Router, app: AppDeps, groups: Record<string, RouteGroup>, handlers: Record<string, () => Promise<Record<string, AnyHandler>>>) {
  for (const [group, { load, routes }] of Object.entries(groups)) {
    const loadHandlers = handlers[group]
    if (!loadHandlers) throw new Error(`no handlers for contract group ${group}`)
    let ready: Served | undefined
    let loading: Promise<Served> | undefined
    const loaded = () => (loading ??= Promise.all([load(), loadHandlers()])
      .then(([declarations, own]) => (ready = served(group, routes, declarations, own)))
      .finally(() => (loading = undefined)))
    for (const [name, method, path, greedy] of routes) {
      const answer = (all: Served, req: Req, res: ServerResponse) => {
        const { endpoint, handler } = all.get(name)!
        return serve(app, endpoint, handler, req, res)
      }
      router.add(method, routeOf(path, greedy), (req: Req, res: ServerResponse) =>
        (ready ? answer(ready, req, res) : loaded().then((all) => answer(all, req, res))).catch(async (err) => {
          // An error answer also waits: a request's failure must not overtake the saved writes of the ones before it.
          await afterCommit(app).catch(() => {})
          sendError(res, err, app.log)
        }))
    }
  }
}

export { JSON_TYPE }
