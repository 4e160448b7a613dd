// Milestones of a project (`/<project>/-/milestones[/<iid>]`) and of a group (`/groups/<path>/-/milestones[/<iid>]`),
// where a milestone's web_url points: the list, and one milestone with its description, dates and the issues and
// merge requests that carry it. GitLab's page has burndown charts and boards; this one is the honest list.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import { notFound } from '../../../core/errors.js'
import type { RouteRequest } from '../../http/router.js'
import { findVisibleGroup } from '../../services/groups/index.js'
import { bundles as issueBundles, listIssues } from '../../services/issuables/index.js'
import { renderMarkdown } from '../../services/markup/index.js'
import * as mrs from '../../services/merge-requests/index.js'
import { listMilestones, type MilestoneParent, type MilestoneRow } from '../../services/issuables/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import type { WebContext } from '../context.js'
import { html, pathPart, trusted, type Html } from '../html.js'
import { document, sendHtml } from '../layout.js'
import { groupUrl } from './groups.js'
import { pager, projectPathOf, projectUrl } from './parts.js'
import { projectHeader } from './project.js'

const ALL = { page: 1, perPage: 100, limit: 100, offset: 0 }

interface Owner { parent: MilestoneParent; url: string; name: string; head: Html; projectPath?: string; groupId?: number }

function projectOwner(ctx: WebContext, path: string): Owner {
  const p = findVisibleProject(ctx, path)
  // Milestones belong to issues and merge requests: with both turned off, GitLab has no milestone pages.
  if (!p.issues_enabled && !p.merge_requests_enabled) throw notFound('Milestone')
  return { parent: p, url: `${projectUrl(ctx, p)}/-/milestones`, name: p.name, head: projectHeader(ctx, p, 'issues'), projectPath: projectPathOf(p) }
}

function groupOwner(ctx: WebContext, path: string): Owner {
  const g = findVisibleGroup(ctx, path)
  if (g.full_path.toLowerCase() !== path.toLowerCase()) throw notFound('Group')
  const url = groupUrl(ctx, g.full_path)
  return { parent: g, url: `${url}/-/milestones`, name: g.full_name, head: html`<h1><a href="${url}">${g.full_name}</a></h1>`, groupId: g.id }
}

const dates = (m: MilestoneRow) =>
  html`${m.start_date ? html` · starts ${m.start_date}` : ''}${m.due_date ? html` · due ${m.due_date}` : ''}`

function listBody(ctx: WebContext, o: Owner, req: RouteRequest): Html {
  const state = req.query.state === 'closed' || req.query.state === 'all' ? req.query.state : 'active'
  const { rows, total } = listMilestones(ctx, o.parent, { state: state === 'all' ? undefined : state })
  const tab = (s: string, label: string) => html`<a href="${o.url}?state=${s}"${s === state ? html` class="badge"` : ''}>${label}</a>`
  const items = rows.map((m) => html`<li><a href="${o.url}/${m.iid}"><strong>${m.title}</strong></a>
<span class="muted">${m.state === 'active' ? 'Open' : 'Closed'}${dates(m)}</span></li>`)
  return html`${o.head}<h2>Milestones</h2><div class="bar">${tab('active', 'Open')}${tab('closed', 'Closed')}${tab('all', 'All')}</div>
${items.length ? html`<ul class="list" id="milestones">${items}</ul>` : html`<p class="muted">No milestones.</p>`}${pager(ctx, o.url, { state }, total)}`
}

async function milestoneBody(ctx: WebContext, o: Owner, iid: number): Promise<{ title: string; body: Html }> {
  const m = listMilestones({ ...ctx, page: ALL }, o.parent, { iids: [iid] }).rows[0]
  if (!m) throw notFound('Milestone')
  const all = { ...ctx, page: ALL }
  const where = o.groupId !== undefined ? { groupId: o.groupId } : { project: o.parent as Parameters<typeof listIssues>[2]['project'] }
  // GitLab lists a milestone's issuables by its title (MilestoneResponses#build_finder_params), as the API does.
  const issues = issueBundles(ctx, listIssues(all, { scope: 'all', milestone: m.title, state: 'all' }, where).rows)
  const merges = mrs.bundles(ctx, mrs.listMergeRequests(all, { scope: 'all', milestone: m.title, state: 'all' }, where).rows)
  const item = (b: { row: { iid: number; title: string; state: string }; projectPath: string }, kind: 'issues' | 'merge_requests') =>
    html`<li><span class="state-${b.row.state}">${b.row.state}</span> <a href="${ctx.baseUrl}/${pathPart(b.projectPath)}/-/${kind}/${b.row.iid}">${b.row.title}</a>
<span class="muted">${b.projectPath}${kind === 'issues' ? '#' : '!'}${b.row.iid}</span></li>`
  const description = m.description
    ? html`<div class="markdown" id="description">${trusted(await renderMarkdown(ctx.app, m.description, { baseUrl: ctx.baseUrl, projectPath: o.projectPath }))}</div>` : ''
  const body = html`${o.head}<p><a href="${o.url}">Milestones</a></p><h2 id="milestone-title">${m.title}</h2>
<p class="muted"><span class="state-${m.state === 'active' ? 'opened' : 'closed'}">${m.state === 'active' ? 'Open' : 'Closed'}</span>${dates(m)}</p>${description}
<h3>Issues (${issues.length})</h3><ul class="list" id="milestone-issues">${issues.map((b) => item(b, 'issues'))}</ul>
<h3>Merge requests (${merges.length})</h3><ul class="list" id="milestone-merge-requests">${merges.map((b) => item(b, 'merge_requests'))}</ul>`
  return { title: m.title, body }
}

export async function milestonesPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, owner: { project?: string; group?: string }, iid?: number) {
  const o = owner.group !== undefined ? groupOwner(ctx, owner.group) : projectOwner(ctx, owner.project!)
  if (iid === undefined) return sendHtml(req, res, 200, document(ctx, `Milestones · ${o.name}`, listBody(ctx, o, req)))
  const { title, body } = await milestoneBody(ctx, o, iid)
  sendHtml(req, res, 200, document(ctx, `${title} · Milestones · ${o.name}`, body))
}

/** A group's milestones: `/groups/<path…>/-/milestones[/<iid>]`. */
const GROUP_MILESTONES = /^\/groups\/(?<group>[^/]+(?:\/(?!-(?:\/|$))[^/]+)*?)\/-\/milestones(?:\/(?<iid>\d{1,9}))?\/?$/i

export const routes: PageRoute[] = [
  {
    method: 'GET', rest: /^milestones(?:\/(\d{1,9}))?$/,
    page: (ctx, req, res, project, m) => milestonesPage(ctx, req, res, { project }, m[1] === undefined ? undefined : Number(m[1])),
  },
  // An unmatched optional group arrives as the text "undefined": only digits are an iid.
  {
    method: 'GET', path: GROUP_MILESTONES,
    page: (ctx, req, res) => milestonesPage(ctx, req, res, { group: req.params.group }, /^\d{1,9}$/.test(req.params.iid ?? '') ? Number(req.params.iid) : undefined),
  },
]
