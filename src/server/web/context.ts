// The caller of a page (the session cookie, nothing else: tokens are for the API) and the CSRF check of its forms.
import { timingSafeEqual } from 'node:crypto'
import type { AppDeps, RequestContext } from '../context.js'
import { readCookie, SESSION_COOKIE } from '../http/auth.js'
import { readBody } from '../http/body.js'
import { API_PREFIX, baseUrlOf } from '../http/mount.js'
import type { RouteRequest } from '../http/router.js'
import { webSession } from '../services/auth.js'

export interface WebContext extends RequestContext {
  /** The session's CSRF token every form carries; empty for an anonymous viewer, who gets no forms. */
  csrfToken: string
  sessionId: string | null
  /** The page's path, for what depends on where it is shown (broadcast banners' target_path). */
  path: string
}

const FORM_LIMIT = 1024 * 1024
const PER_PAGE = 20

export function pageNumber(req: RouteRequest): number {
  const n = Number(req.query.page)
  return Number.isSafeInteger(n) && n > 0 && n < 1_000_000 ? n : 1
}

export function webContext(app: AppDeps, req: RouteRequest, perPage = PER_PAGE): WebContext {
  const sessionId = readCookie(req, SESSION_COOKIE) ?? null
  let session: ReturnType<typeof webSession> = null
  try {
    session = sessionId ? webSession(app, sessionId) : null
  } catch {
    // A blocked or deleted user's old cookie: they browse as anyone else.
    session = null
  }
  const baseUrl = baseUrlOf(app, req)
  const page = pageNumber(req)
  return {
    user: session?.caller.user ?? null, token: null, scopes: null, sudoer: null, job: null,
    app, baseUrl, apiUrl: baseUrl + API_PREFIX,
    page: { page, perPage, limit: perPage, offset: (page - 1) * perPage },
    client: { userAgent: String(req.headers['user-agent'] ?? ''), ip: req.socket.remoteAddress ?? '' },
    csrfToken: session?.csrfToken ?? '',
    sessionId: session ? sessionId : null,
    path: req.path,
  }
}

const sameToken = (a: string, b: string) => a.length === b.length && a.length > 0 && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/** A form's fields, read only when it carries the session's CSRF token; anything else is refused before any write. */
export async function readForm(ctx: WebContext, req: RouteRequest): Promise<Record<string, unknown> | null> {
  const fields = await readBody(req, FORM_LIMIT, FORM_LIMIT, FORM_LIMIT)
  const token = typeof fields.authenticity_token === 'string' ? fields.authenticity_token : ''
  if (!ctx.user || !sameToken(token, ctx.csrfToken)) return null
  return fields
}
