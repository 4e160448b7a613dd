// `/<username>`: a user's profile (name, bio, their personal projects the viewer can see). A top-level group's
// `/<path>` leads to `/groups/<path>`, as GitLab's namespace routes do; any other single segment is the 404 page.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import { notFound } from '../../../core/errors.js'
import type { RouteRequest } from '../../http/router.js'
import { findVisibleGroup } from '../../services/groups/index.js'
import { listProjects } from '../../services/projects/index.js'
import { listUsers } from '../../services/users/index.js'
import type { UserRow } from '../../store/users.js'
import type { WebContext } from '../context.js'
import { ago } from '../dates.js'
import { html, pathPart, type Html } from '../html.js'
import { document, redirect, sendHtml } from '../layout.js'
import { groupUrl, projectList } from './groups.js'
import { pager } from './parts.js'

const ONE = { page: 1, perPage: 1, limit: 1, offset: 0 }

function findUser(ctx: WebContext, username: string): UserRow | undefined {
  try {
    return listUsers({ ...ctx, page: ONE }, { username, orderBy: 'id', sort: 'asc' }).rows[0]
  } catch {
    // With the public level restricted, anonymous viewers may not look users up: to them no profile exists.
    return undefined
  }
}

function details(u: UserRow): Html {
  const facts: [string, string][] = [['Job title', u.job_title], ['Organization', u.organization], ['Location', u.location], ['Pronouns', u.pronouns ?? '']]
  const website = /^https?:\/\//i.test(u.website_url) ? html`<li><a href="${u.website_url}" rel="nofollow noopener">${u.website_url}</a></li>` : ''
  const items = facts.filter(([, v]) => v).map(([k, v]) => html`<li><span class="muted">${k}:</span> ${v}</li>`)
  return items.length || website ? html`<ul class="list" id="user-details">${items}${website}</ul>` : html``
}

async function profile(ctx: WebContext, req: RouteRequest, res: ServerResponse, u: UserRow) {
  const url = `${ctx.baseUrl}/${pathPart(u.username)}`
  const head = html`<h1 id="user-name">${u.name}</h1><p class="muted" id="user-username">@${u.username} · member since ${ago(ctx, u.created_at)}</p>`
  if (u.state !== 'active') return sendHtml(req, res, 200, document(ctx, u.name, html`${head}<p id="user-blocked">This user is blocked.</p>`))
  const self = ctx.user?.id === u.id || ctx.user?.is_admin === 1
  if (u.private_profile && !self) {
    return sendHtml(req, res, 200, document(ctx, u.name, html`${head}<p id="user-private">This user has a private profile.</p>`))
  }
  const { rows, total } = listProjects(ctx, { namespaceOwner: u.id, orderBy: 'last_activity_at', sort: 'desc' })
  const body = html`${head}${u.bio ? html`<p id="user-bio">${u.bio}</p>` : ''}${details(u)}
<h2>Personal projects</h2>${projectList(ctx, rows, 'No personal projects you can see.')}${pager(ctx, url, {}, total)}`
  sendHtml(req, res, 200, document(ctx, `${u.name} (@${u.username})`, body))
}

export async function namespacePage(ctx: WebContext, req: RouteRequest, res: ServerResponse, segment: string) {
  const user = findUser(ctx, segment)
  if (user) return profile(ctx, req, res, user)
  // A group named by path, never by a numeric id (`/12` is no group's page).
  if (/^\d+$/.test(segment)) throw notFound('User')
  const group = findVisibleGroup(ctx, segment)
  redirect(res, groupUrl(ctx, group.full_path))
}

/** A lone `/<username>` (or a top-level group's path). */
const NAMESPACE_PAGE = /^\/(?![^/]*\.git\/?$)(?!(?:api|oauth|users|groups|-)\/?$)(?<segment>[^/]+?)\/?$/i

export const routes: PageRoute[] = [
  { method: 'GET', path: NAMESPACE_PAGE, page: (ctx, req, res) => namespacePage(ctx, req, res, req.params.segment) },
]
