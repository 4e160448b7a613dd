// Mounts every contract endpoint on polka: query+body+path merged, authenticated, validated, handled, written.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Polka, Request as PolkaRequest } from 'polka'
import type { Contract, Endpoint, EndpointInput } from '../../contract/define.js'
import { forbidden, unauthorized } from '../../core/errors.js'
import type { AppDeps, HandlerResult, RequestContext } from '../context.js'
import { maxAttachmentBytes } from '../services/application-settings.js'
import { checkScope } from '../services/auth.js'
import { authenticate } from './auth.js'
import { parseParams, readBody } from './body.js'
import { normalizePage, paginationHeaders } from './pagination.js'
import { JSON_TYPE, sendError, sendJson } from './respond.js'
import { authenticateThrottled } from './throttle.js'
import { validationError } from './validate.js'

export const API_PREFIX = '/api/v4'
export const BODY_LIMIT = 20 * 1024 * 1024

export type Handler<E> = (input: EndpointInput<E>, ctx: RequestContext) => HandlerResult | Promise<HandlerResult>
export type Handlers<C extends Contract> = { [K in keyof C]: Handler<C[K]> }

type Req = PolkaRequest
type AnyHandler = (input: any, ctx: RequestContext) => HandlerResult | Promise<HandlerResult>

export function baseUrlOf(req: IncomingMessage): string {
  const proto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim() || 'http'
  return `${proto}://${req.headers.host ?? 'localhost'}`
}

const HAS_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

async function serve(app: AppDeps, endpoint: Endpoint, handler: AnyHandler, req: Req, res: ServerResponse) {
  const query = parseParams(req.search ? req.search.slice(1) : '')
  const body = HAS_BODY.has(req.method) ? await readBody(req, BODY_LIMIT, maxAttachmentBytes(app)) : {}
  const merged = { ...query, ...body, ...req.params }
  const caller = authenticateThrottled(app, req, () => authenticate(app, req, merged))
  if (!caller.user && endpoint.auth !== 'public' && endpoint.auth !== 'optional') throw unauthorized()
  if (endpoint.auth === 'admin' && !caller.user?.is_admin) throw forbidden()
  checkScope(caller, endpoint.scope)
  const parsed = endpoint.schema.safeParse(merged)
  if (!parsed.success) throw validationError(parsed.error.issues, merged)
  const input = parsed.data as Record<string, unknown>
  const baseUrl = baseUrlOf(req)
  const page = normalizePage(input.page, input.per_page)
  const client = { userAgent: String(req.headers['user-agent'] ?? ''), ip: req.socket.remoteAddress ?? '' }
  const ctx: RequestContext = { ...caller, app, baseUrl, apiUrl: baseUrl + API_PREFIX, page, client }
  const result = await handler(input, ctx)
  const headers = { ...result.headers }
  if (endpoint.paginated && result.total !== undefined) {
    Object.assign(headers, paginationHeaders({ baseUrl, path: req.path, search: req.search, page: page.page, perPage: page.perPage, total: result.total }))
  }
  if (result.raw !== undefined) {
    res.writeHead(result.status, headers)
    res.end(req.method === 'HEAD' ? undefined : result.raw)
    return
  }
  sendJson(res, result.status, result.body, headers)
}

/** Static segments before parameters, so `/members/all` wins over `/members/:user_id`. */
function routeOrder(a: Endpoint, b: Endpoint) {
  const sa = a.path.split('/')
  const sb = b.path.split('/')
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i].startsWith(':') ? 1 : 0
    const pb = sb[i].startsWith(':') ? 1 : 0
    if (pa !== pb) return pa - pb
  }
  return sb.length - sa.length
}

export function mountContract(router: Polka, app: AppDeps, groups: { endpoints: Contract; handlers: Record<string, AnyHandler> }[]) {
  const routes: { endpoint: Endpoint; handler: AnyHandler }[] = []
  for (const { endpoints, handlers } of groups) {
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const handler = handlers[name]
      if (!handler) throw new Error(`no handler for endpoint ${name} (${endpoint.method} ${endpoint.path})`)
      routes.push({ endpoint, handler })
    }
  }
  routes.sort((a, b) => routeOrder(a.endpoint, b.endpoint))
  for (const { endpoint, handler } of routes) {
    router.add(endpoint.method, API_PREFIX + endpoint.path, (req: Req, res: ServerResponse) =>
      serve(app, endpoint, handler, req, res).catch((err) => sendError(res, err, app.log)))
  }
}

export { JSON_TYPE }
