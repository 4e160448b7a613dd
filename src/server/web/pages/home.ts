// `/`: the projects the viewer can see, with search; the sign-in form and sign-out.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { signOut as endSession } from '../../services/users/index.js'
import { listProjects } from '../../services/projects/index.js'
import { SESSION_COOKIE } from '../../http/auth.js'
import { afterCommit } from '../../http/mount.js'
import { readForm, signInToken, type WebContext } from '../context.js'
import { html, pathPart } from '../html.js'
import { csrfField, document, redirect, sendHtml } from '../layout.js'
import { pager, refuseForm } from './parts.js'

const text = (v: unknown) => (typeof v === 'string' ? v : undefined)

export async function homePage(ctx: WebContext, req: RouteRequest, res: ServerResponse) {
  const search = text(req.query.search)?.slice(0, 200) || undefined
  const { rows, total } = listProjects(ctx, { search, orderBy: 'last_activity_at', sort: 'desc' })
  const items = rows.map((p) => html`<li><a href="${ctx.baseUrl}/${pathPart(`${p.ns_full_path}/${p.path}`)}"><strong>${p.ns_full_name} / ${p.name}</strong></a>
    <span class="label">${p.visibility}</span><div class="muted">${p.description ?? ''}</div></li>`)
  const body = html`<h1>Projects</h1>${ctx.user ? html`<p><a href="${ctx.baseUrl}/projects/new" id="new-project" class="badge">New project</a></p>` : ''}
<form method="get" action="${ctx.baseUrl}/" class="bar"><input type="search" name="search" value="${search ?? ''}" placeholder="Filter by name"><button type="submit">Search</button></form>
${rows.length ? html`<ul class="list" id="projects">${items}</ul>` : html`<p class="muted">No projects${search ? ' match' : ''}.</p>`}
${pager(ctx, `${ctx.baseUrl}/`, { search }, total)}`
  sendHtml(req, res, 200, document(ctx, 'Projects', body))
}

export async function signInPage(ctx: WebContext, req: RouteRequest, res: ServerResponse) {
  if (ctx.user) return redirect(res, `${ctx.baseUrl}/`)
  const failed = req.query.failed !== undefined ? html`<p class="flash" id="sign-in-error">Invalid login or password.</p>` : ''
  const { token, setCookie } = signInToken(req, ctx.baseUrl.startsWith('https:'))
  const body = html`<h1>Sign in</h1>${failed}
<form method="post" action="${ctx.baseUrl}/users/sign_in" id="sign-in">${csrfField({ ...ctx, csrfToken: token })}
<p><label>Username or email<br><input name="user[login]" autocomplete="username" required autofocus></label></p>
<p><label>Password<br><input type="password" name="user[password]" autocomplete="current-password" required></label></p>
<p><button type="submit">Sign in</button></p></form>`
  sendHtml(req, res, 200, document(ctx, 'Sign in', body), setCookie ? { 'Set-Cookie': setCookie } : {})
}

/** A form post with the CSRF token ends the session; without one nothing changes. */
export async function signOut(ctx: WebContext, req: RouteRequest, res: ServerResponse) {
  const form = await readForm(ctx, req)
  if (!form || !ctx.sessionId) return refuseForm(ctx, req, res)
  endSession(ctx.app, ctx.sessionId)
  await afterCommit(ctx.app)
  res.setHeader('Set-Cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; Max-Age=0`)
  redirect(res, `${ctx.baseUrl}/users/sign_in`)
}

export const routes: PageRoute[] = [
  { method: 'GET', path: '/', page: homePage },
  { method: 'GET', path: '/users/sign_in', page: signInPage },
  { method: 'POST', path: '/users/sign_out', page: signOut },
]
