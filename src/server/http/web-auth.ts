// Routes outside /api/v4 that issue credentials: OAuth 2 token and revoke, and the web sign-in that sets the session cookie.
import type { ServerResponse } from 'node:http'
import type { RouteRequest, Router } from './router.js'
import qs from 'qs'
import type { AppDeps } from '../context.js'
import { credentialText, oauthGrant, revokeOAuthToken, signIn, signOut } from '../services/users/auth.js'
import { readCookie, SESSION_COOKIE } from './auth.js'
import { QS_OPTIONS, readBody } from './body.js'
import { afterCommit, baseUrlOf } from './mount.js'
import { sendError, sendJson } from './respond.js'
import { throttleAnonymous } from './throttle.js'
import { signInFormIsOurs, webContext } from '../web/context.js'
import { refuseForm } from '../web/pages/parts.js'

const LIMIT = 64 * 1024

const queryOf = (req: RouteRequest) => qs.parse(req.search ? req.search.slice(1) : '', QS_OPTIONS) as Record<string, unknown>

async function params(req: RouteRequest) {
  return { ...queryOf(req), ...(await readBody(req, LIMIT, LIMIT, LIMIT)) }
}

type Route = (app: AppDeps, req: RouteRequest, res: ServerResponse) => Promise<void>

// These routes take passwords and refresh tokens from anyone: they count against the unauthenticated throttle.
const route = (app: AppDeps, fn: Route) => (req: RouteRequest, res: ServerResponse) =>
  Promise.resolve().then(() => throttleAnonymous(app, req)).then(() => fn(app, req, res)).catch((err) => sendError(res, err, app.log))

export function mountWebAuth(router: Router, app: AppDeps) {
  router.post('/oauth/token', route(app, async (app, req, res) => {
    const grant = await oauthGrant(app, await params(req))
    await afterCommit(app)
    sendJson(res, 200, grant, { 'Cache-Control': 'no-store', Pragma: 'no-cache' })
  }))

  router.post('/oauth/revoke', route(app, async (app, req, res) => {
    const p = await params(req)
    if (typeof p.token === 'string') revokeOAuthToken(app, p.token)
    await afterCommit(app)
    sendJson(res, 200, {})
  }))

  // The web sign-in form GitLab serves; the session cookie it sets also authenticates API reads. As Rails does, a post
  // without the form's authenticity_token is refused before the password is looked at (422, as our other forms).
  router.post('/users/sign_in', route(app, async (app, req, res) => {
    const body = await readBody(req, LIMIT, LIMIT, LIMIT)
    if (!signInFormIsOurs(req, body)) return refuseForm(webContext(app, req), req, res)
    const p = { ...queryOf(req), ...body }
    const user = (p.user ?? {}) as Record<string, unknown>
    const login = credentialText(user.login ?? p.login) ?? ''
    const password = credentialText(user.password ?? p.password) ?? ''
    const session = await signIn(app, login, password)
    if (!session) {
      // A browser's form goes back to the sign-in page, which says why; API clients keep GitLab's JSON answer.
      if (/text\/html/.test(req.headers.accept ?? '')) {
        res.writeHead(303, { Location: `${baseUrlOf(app, req)}/users/sign_in?failed=1` })
        res.end()
        return
      }
      sendJson(res, 401, { message: 'Invalid login or password.' })
      return
    }
    await afterCommit(app)
    const secure = baseUrlOf(app, req).startsWith('https:') ? '; Secure' : ''
    res.writeHead(302, {
      Location: `${baseUrlOf(app, req)}/`,
      'Set-Cookie': `${SESSION_COOKIE}=${session.sessionId}; Path=/; HttpOnly; SameSite=Lax; Expires=${new Date(session.expiresAt).toUTCString()}${secure}`,
      'X-CSRF-Token': session.csrfToken,
    })
    res.end()
  }))

  router.add('DELETE', '/users/sign_out', route(app, async (app, req, res) => {
    const session = readCookie(req, SESSION_COOKIE)
    if (session) signOut(app, session)
    await afterCommit(app)
    res.writeHead(204, { 'Set-Cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; Max-Age=0` })
    res.end()
  }))
}
