// The caller of a page (the session cookie, nothing else: tokens are for the API) and the CSRF check of its forms.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { AppDeps, RequestContext } from '../context.js'
import { readCookie, SESSION_COOKIE } from '../http/auth.js'
import { readBody } from '../http/body.js'
import { API_PREFIX, baseUrlOf } from '../http/mount.js'
import type { RouteRequest } from '../http/router.js'
import { webSession } from '../services/users/index.js'

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

// Compared as bytes: a token of the right length in characters but not in bytes must be refused, not thrown on.
function sameToken(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)]
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y)
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/**
 * Whether the browser says the form was sent from one of our pages: `Sec-Fetch-Site` when it sends one, else `Origin`
 * against the Host it addressed (Rails' origin check; the scheme is left out, as a TLS proxy we were not told to
 * trust makes our base URL say http). A client that sends neither (curl, a test) is judged by the token alone.
 */
function sentFromOurPages(req: IncomingMessage): boolean {
  // Fetch metadata is the browser's own word, and unlike Origin it holds behind a proxy that rewrites Host.
  const site = header(req, 'sec-fetch-site')
  if (site !== undefined) return site === 'same-origin' || site === 'none'
  const origin = header(req, 'origin')
  if (origin === undefined) return true
  try {
    return new URL(origin).host === header(req, 'host')
  } catch {
    // `Origin: null` (a sandboxed or privacy-redirected page) names no page of ours.
    return false
  }
}

/** The check of every form: its `authenticity_token` is the one we gave this browser, and it came from our pages. */
function formIsOurs(req: IncomingMessage, fields: Record<string, unknown>, expected: string): boolean {
  const token = typeof fields.authenticity_token === 'string' ? fields.authenticity_token : ''
  return sentFromOurPages(req) && sameToken(token, expected)
}

/** A form's fields, read only when it carries the session's CSRF token; anything else is refused before any write. */
export async function readForm(ctx: WebContext, req: RouteRequest): Promise<Record<string, unknown> | null> {
  const fields = await readBody(req, FORM_LIMIT, FORM_LIMIT, FORM_LIMIT)
  if (!ctx.user || !formIsOurs(req, fields, ctx.csrfToken)) return null
  return fields
}

/**
 * The sign-in form has no session to hold its token yet: like Rails' pre-login session, a cookie of its own (sent only
 * to the sign-in path) holds it, and the form carries the same value. A foreign page can neither read the cookie nor
 * set it, so it cannot sign a browser into another account (login CSRF).
 */
export const SIGN_IN_COOKIE = '_service_sign_in'
const SIGN_IN_TOKEN = /^[A-Za-z0-9_-]{43}$/

/** The sign-in form's token: the browser's own when it has one, else a new one with the cookie that keeps it. */
export function signInToken(req: IncomingMessage, secure: boolean): { token: string; setCookie?: string } {
  const known = readCookie(req, SIGN_IN_COOKIE)
  if (known && SIGN_IN_TOKEN.test(known)) return { token: known }
  const token = randomBytes(32).toString('base64url')
  return { token, setCookie: `${SIGN_IN_COOKIE}=${token}; Path=/users/sign_in; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}` }
}

/** Whether a sign-in post carries the token of the form this browser was given. */
export const signInFormIsOurs = (req: IncomingMessage, fields: Record<string, unknown>) =>
  formIsOurs(req, fields, readCookie(req, SIGN_IN_COOKIE) ?? '')
