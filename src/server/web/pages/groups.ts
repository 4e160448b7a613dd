// `/groups/<path>`: a group's description, the subgroups and projects the viewer can see (private ones stay hidden,
// as the API hides them), paged like the API's lists.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import { notFound } from '../../../core/errors.js'
import type { RouteRequest } from '../../http/router.js'
import { findVisibleGroup, listGroups } from '../../services/groups/index.js'
import { renderMarkdown } from '../../services/markup/index.js'
import { listProjects } from '../../services/projects/index.js'
import type { ProjectView } from '../../store/projects.js'
import type { WebContext } from '../context.js'
import { html, pathPart, trusted, type Html } from '../html.js'
import { document, sendHtml } from '../layout.js'
import { pager, projectUrl } from './parts.js'

const SUBGROUPS = { page: 1, perPage: 100, limit: 100, offset: 0 }

export const groupUrl = (ctx: WebContext, fullPath: string) => `${ctx.baseUrl}/groups/${pathPart(fullPath)}`

/** Projects as the home page lists them: name, visibility, description as text. */
export function projectList(ctx: WebContext, rows: ProjectView[], empty: string): Html {
  if (!rows.length) return html`<p class="muted">${empty}</p>`
  return html`<ul class="list" id="projects">${rows.map((p) => html`<li><a href="${projectUrl(ctx, p)}"><strong>${p.ns_full_name} / ${p.name}</strong></a>
<span class="label">${p.visibility}</span><div class="muted">${p.description ?? ''}</div></li>`)}</ul>`
}

export async function groupPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, path: string) {
  const g = findVisibleGroup(ctx, path)
  // A numeric segment is read as an id by the lookup: the page is only the group whose path it is.
  if (g.full_path.toLowerCase() !== path.toLowerCase()) throw notFound('Group')
  const subgroups = listGroups({ ...ctx, page: SUBGROUPS }, { parentId: g.id, orderBy: 'name', sort: 'asc' }).rows
  const { rows, total } = listProjects(ctx, { inNamespace: g.id, orderBy: 'name', sort: 'asc' })
  const description = g.description ? html`<div class="markdown" id="description">${trusted(await renderMarkdown(ctx.app, g.description, { baseUrl: ctx.baseUrl }))}</div>` : ''
  const groups = subgroups.length
    ? html`<h2>Subgroups</h2><ul class="list" id="subgroups">${subgroups.map((s) => html`<li><a href="${groupUrl(ctx, s.full_path)}"><strong>${s.name}</strong></a>
<span class="label">${s.visibility}</span><div class="muted">${s.description}</div></li>`)}</ul>`
    : ''
  const parent = g.parent_id === null ? '' : html`<a href="${groupUrl(ctx, g.full_path.slice(0, g.full_path.lastIndexOf('/')))}">Parent group</a>`
  const body = html`<h1 id="group-name">${g.full_name}</h1>
<p class="muted"><span class="label">${g.visibility}</span> ${g.full_path} ${parent}</p>${description}${groups}
<h2>Projects</h2>${projectList(ctx, rows, 'This group has no projects you can see.')}${pager(ctx, groupUrl(ctx, g.full_path), {}, total)}`
  sendHtml(req, res, 200, document(ctx, g.full_name, body))
}

/** `/groups/<path…>` (of its `/-/` pages, only milestones so far: milestones.ts). */
const GROUP_PAGE = /^\/groups\/(?<group>[^/]+(?:\/(?!-(?:\/|$))[^/]+)*?)\/?$/i

export const routes: PageRoute[] = [
  { method: 'GET', path: GROUP_PAGE, page: (ctx, req, res) => groupPage(ctx, req, res, req.params.group) },
]
