// A project's merge requests: the filtered list, and one merge request's commits and changes tabs (the overview with
// its forms is merge-request-page.ts). Same services and git reads as the merge requests API.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { MergeRequestListInput } from '../../../contract/endpoints/merge-requests.js'
import type { RouteRequest } from '../../http/router.js'
import { findUserByIdOrUsername } from '../../services/users/index.js'
import { mergeRequestChanges, mergeRequestCommits } from '../../services/merge-requests/index.js'
import { bundles, findVisibleMergeRequest, isDraft, listMergeRequests, requireMergeRequestAccess, type MergeRequestRow } from '../../services/merge-requests/index.js'
import { CHANGES_CAP } from '../../services/merge-requests/index.js'
import { headPipelineOf } from '../../services/ci/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import type { ProjectView } from '../../store/projects.js'
import type { WebContext } from '../context.js'
import { ago } from '../dates.js'
import { html, pathPart, query, type Html } from '../html.js'
import { pipelineStatusLink } from '../icons.js'
import { document, notFoundBody, sendHtml } from '../layout.js'
import { diffFiles, diffViewToggle } from './diff.js'
import { overviewPage } from './merge-request-page.js'
import { openLine, reviewBar, reviewHooks, reviewOf } from './threads.js'
import { draftMarker, mergeRequestHead, STATE_WORDS } from './merge-request-head.js'
import { labelList, pager, projectUrl } from './parts.js'
import { shortSha } from './pipelines.js'
import { projectHeader } from './project.js'

const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined)

type State = 'opened' | 'merged' | 'closed' | 'all'
interface Filters { state: State; search?: string; labels: string[]; milestone?: string; author?: string; assignee?: string }

function filtersOf(req: RouteRequest): Filters {
  const state = one(req.query.state)
  const text = (name: string) => one(req.query[name])?.trim().slice(0, 200) || undefined
  return {
    state: state === 'merged' || state === 'closed' || state === 'all' ? state : 'opened',
    search: text('search'),
    labels: (text('label_name') ?? '').split(',').map((s) => s.trim()).filter(Boolean).slice(0, 20),
    milestone: text('milestone_title'),
    author: text('author_username'),
    assignee: text('assignee_username'),
  }
}

function listInput(ctx: WebContext, f: Filters): MergeRequestListInput | null {
  const input: MergeRequestListInput = {
    scope: 'all', state: f.state, search: f.search, milestone: f.milestone, labels: f.labels.length ? f.labels : undefined, author_username: f.author,
  }
  if (f.assignee) {
    const user = findUserByIdOrUsername(ctx.app, f.assignee)
    // An unknown assignee matches nothing, as GitLab's filter does.
    if (!user) return null
    input.assignee_id = user.id
  }
  return input
}

const asParams = (f: Filters) => ({
  state: f.state, search: f.search, label_name: f.labels.join(',') || undefined, milestone_title: f.milestone,
  author_username: f.author, assignee_username: f.assignee,
})

function filterForm(url: string, f: Filters): Html {
  const tab = (state: State, label: string) =>
    html`<a href="${url}${query({ ...asParams(f), state })}"${f.state === state ? html` class="badge"` : ''}>${label}</a>`
  return html`<div class="bar">${tab('opened', 'Open')}${tab('merged', 'Merged')}${tab('closed', 'Closed')}${tab('all', 'All')}</div>
<form method="get" action="${url}" class="bar" id="mr-filters"><input type="hidden" name="state" value="${f.state}">
<input type="search" name="search" value="${f.search ?? ''}" placeholder="Search">
<input name="label_name" value="${f.labels.join(',')}" placeholder="Labels (comma separated)">
<input name="milestone_title" value="${f.milestone ?? ''}" placeholder="Milestone">
<input name="author_username" value="${f.author ?? ''}" placeholder="Author username">
<input name="assignee_username" value="${f.assignee ?? ''}" placeholder="Assignee username"><button type="submit">Filter</button></form>`
}

/** A project whose merge requests the viewer may see: the project's own 404 otherwise, as the API answers. */
function mergeRequestsProject(ctx: WebContext, projectPath: string): ProjectView | null {
  const p = findVisibleProject(ctx, projectPath)
  return p.merge_requests_enabled ? p : null
}

async function listPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView) {
  requireMergeRequestAccess(ctx, p)
  const url = `${projectUrl(ctx, p)}/-/merge_requests`
  const f = filtersOf(req)
  const input = listInput(ctx, f)
  const { rows, total } = input ? listMergeRequests(ctx, input, { project: p }) : { rows: [], total: 0 }
  const items = bundles(ctx, rows).map((b) => html`<li><span class="state-${b.row.state}">${STATE_WORDS[b.row.state]}</span>
${b.draft ? draftMarker : ''}<a href="${url}/${b.row.iid}"><strong>${b.row.title}</strong></a>${headPipelineLink(ctx, b.row)}
<span class="muted">!${b.row.iid} by @${b.author.username} · ${b.row.source_branch} → ${b.row.target_branch}</span> ${labelList(b.labels)}
${b.milestone ? html`<span class="muted">· ${b.milestone.title}</span>` : ''}${b.assignees.length ? html` <span class="muted">· ${b.assignees.map((a) => `@${a.username}`).join(', ')}</span>` : ''}</li>`)
  const create = ctx.user ? html`<p><a href="${url}/new" id="new-merge-request" class="badge">New merge request</a></p>` : ''
  const body = html`${projectHeader(ctx, p, 'merge_requests')}${create}${filterForm(url, f)}
${items.length ? html`<ul class="list" id="merge-requests">${items}</ul>` : html`<p class="muted">No merge requests match.</p>`}
${pager(ctx, url, asParams(f), total)}`
  sendHtml(req, res, 200, document(ctx, `Merge requests · ${p.name}`, body))
}

const title = (message: string) => message.split('\n')[0]

/** The head pipeline's status icon linked to it (in the source project, a fork's), when the viewer may read it. */
function headPipelineLink(ctx: WebContext, mr: MergeRequestRow): Html | '' {
  const head = headPipelineOf(ctx, mr)
  return head ? html` ${pipelineStatusLink(`${ctx.baseUrl}/${pathPart(head.projectPath)}`, head.row)}` : ''
}

async function commitsTab(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView, mr: MergeRequestRow, draft: boolean) {
  const list = await mergeRequestCommits(ctx, p, mr)
  const url = projectUrl(ctx, p)
  const items = list.map((c) => html`<li><a href="${url}/-/commit/${c.id}"><strong>${title(c.message)}</strong></a>
<div class="muted">${c.authorName} authored ${ago(ctx, c.authoredDate)} · <code>${shortSha(c.id)}</code></div></li>`)
  const body = html`${mergeRequestHead(ctx, p, mr, 'commits', draft)}
${items.length ? html`<ul class="list" id="mr-commits">${items}</ul>` : html`<p class="muted">No commits.</p>`}`
  sendHtml(req, res, 200, document(ctx, `Commits · ${mr.title} (!${mr.iid})`, body))
}

async function diffsTab(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView, mr: MergeRequestRow, draft: boolean) {
  const all = await mergeRequestChanges(ctx, p, mr)
  // GitLab's cap on a merge request's diff: past it the page says so rather than growing without bound.
  const files = all.slice(0, CHANGES_CAP)
  const view = req.query.view === 'parallel' ? 'parallel' : 'inline'
  const url = `${projectUrl(ctx, p)}/-/merge_requests/${mr.iid}/diffs`
  const toggle = diffViewToggle(url, view)
  const review = reviewOf(ctx, p, mr)
  const hooks = await reviewHooks(ctx, review, files, view, openLine(req.query.line))
  const list = html`<ol id="mr-files">${files.map((f, i) => html`<li><a href="#diff-${i}">${f.renamedFile ? `${f.oldPath} → ${f.newPath}` : f.newPath}</a>
<span class="muted">+${f.additions} −${f.deletions}</span></li>`)}</ol>`
  const body = html`${mergeRequestHead(ctx, p, mr, 'diffs', draft)}
${await reviewBar(ctx, review, view === 'parallel' ? 'parallel' : 'diffs')}
${files.length ? html`<p>${files.length} changed file${files.length === 1 ? '' : 's'}</p>${list}${toggle}${diffFiles(files, view, hooks)}` : html`<p class="muted">No changes.</p>`}
${all.length > files.length ? html`<p class="muted" id="diff-overflow">${all.length - files.length} more files are not shown.</p>` : ''}`
  sendHtml(req, res, 200, document(ctx, `Changes · ${mr.title} (!${mr.iid})`, body))
}

/** `/-/merge_requests`, `/-/merge_requests/<iid>` and its `/commits` and `/diffs` tabs. */
export async function mergeRequestsGet(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, tail: string | undefined) {
  const p = mergeRequestsProject(ctx, projectPath)
  const [, iid, tab] = /^(\d{1,9})(?:\/(commits|diffs))?$/.exec(tail ?? '') ?? []
  if (!p || (tail !== undefined && !iid)) return sendHtml(req, res, 404, notFoundBody(ctx))
  if (tail === undefined) return listPage(ctx, req, res, p)
  const mr = findVisibleMergeRequest(ctx, p, Number(iid))
  const draft = isDraft(mr.title)
  if (tab === 'commits') return commitsTab(ctx, req, res, p, mr, draft)
  if (tab === 'diffs') return diffsTab(ctx, req, res, p, mr, draft)
  return overviewPage(ctx, req, res, p, mr)
}

export const routes: PageRoute[] = [
  // The new and edit forms are merge-request-forms.ts'.
  {
    method: 'GET', rest: /^merge_requests(?:\/(?!new$)(?!\d{1,9}\/edit$)(.*))?$/,
    page: (ctx, req, res, project, m) => mergeRequestsGet(ctx, req, res, project, m[1]),
  },
]
