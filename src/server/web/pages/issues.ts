// A project's issues: the filtered list, one issue with its notes, and the forms to comment, close and reopen.
import { underProject, type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { IssueListInput } from '../../../contract/endpoints/issues.js'
import { afterCommit } from '../../http/mount.js'
import type { RouteRequest } from '../../http/router.js'
import { findUserByIdOrUsername } from '../../services/users/index.js'
import { bundle, bundles, editIssue, findVisibleIssue, listIssues } from '../../services/issuables/index.js'
import { renderMarkdown } from '../../services/markup/index.js'
import type { Noteable } from '../../services/issuables/index.js'
import { createDiscussion } from '../../services/issuables/index.js'
import { createNote } from '../../services/issuables/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import type { ProjectView } from '../../store/projects.js'
import { readForm, type WebContext } from '../context.js'
import { ago } from '../dates.js'
import { html, pathPart, query, trusted, type Html } from '../html.js'
import { csrfField, document, redirect, sendHtml } from '../layout.js'
import { labelList, pager, projectPathOf, projectUrl, refuseForm } from './parts.js'
import { projectHeader } from './project.js'
import { issueThreadsOf, threadsHtml } from './threads.js'

const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined)
const many = (v: unknown): string[] => (typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
  .map((s) => s.trim()).filter(Boolean).slice(0, 20)

interface Filters { state: 'opened' | 'closed' | 'all'; search?: string; labels: string[]; milestone?: string; assignee?: string }

function filtersOf(req: RouteRequest): Filters {
  const state = one(req.query.state)
  return {
    state: state === 'closed' || state === 'all' ? state : 'opened',
    search: one(req.query.search)?.slice(0, 200) || undefined,
    labels: many(req.query.label_name ?? req.query['label_name[]']),
    milestone: one(req.query.milestone_title) || undefined,
    assignee: one(req.query.assignee_username) || undefined,
  }
}

function listInput(ctx: WebContext, f: Filters): IssueListInput | null {
  const input: IssueListInput = { scope: 'all', state: f.state, search: f.search, milestone: f.milestone, labels: f.labels.length ? f.labels : undefined }
  if (f.assignee) {
    const user = findUserByIdOrUsername(ctx.app, f.assignee)
    // An unknown assignee matches nothing, as GitLab's filter does.
    if (!user) return null
    input.assignee_id = user.id
  }
  return input
}

const asParams = (f: Filters) => ({ state: f.state, search: f.search, label_name: f.labels.join(',') || undefined, milestone_title: f.milestone, assignee_username: f.assignee })

function filterForm(ctx: WebContext, url: string, f: Filters): Html {
  const tab = (state: Filters['state'], label: string) =>
    html`<a href="${url}${query({ ...asParams(f), state })}"${f.state === state ? html` class="badge"` : ''}>${label}</a>`
  return html`<div class="bar">${tab('opened', 'Open')}${tab('closed', 'Closed')}${tab('all', 'All')}</div>
<form method="get" action="${url}" class="bar" id="issue-filters"><input type="hidden" name="state" value="${f.state}">
<input type="search" name="search" value="${f.search ?? ''}" placeholder="Search">
<input name="label_name" value="${f.labels.join(',')}" placeholder="Labels (comma separated)">
<input name="milestone_title" value="${f.milestone ?? ''}" placeholder="Milestone">
<input name="assignee_username" value="${f.assignee ?? ''}" placeholder="Assignee username"><button type="submit">Filter</button></form>`
}


export async function issuesPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  const p = findVisibleProject(ctx, projectPath)
  if (!p.issues_enabled) return void sendHtml(req, res, 404, document(ctx, 'Not Found', html`<h1>404: Page not found</h1>`))
  const url = `${projectUrl(ctx, p)}/-/issues`
  const f = filtersOf(req)
  const input = listInput(ctx, f)
  const { rows, total } = input ? listIssues(ctx, input, { project: p }) : { rows: [], total: 0 }
  const items = bundles(ctx, rows).map((b) => html`<li><span class="state-${b.row.state}">${b.row.state === 'opened' ? 'Open' : 'Closed'}</span>
<a href="${url}/${b.row.iid}"><strong>${b.row.title}</strong></a> <span class="muted">#${b.row.iid} by @${b.author.username}</span> ${labelList(b.labels)}
${b.milestone ? html`<span class="muted">· ${b.milestone.title}</span>` : ''}${b.assignees.length ? html` <span class="muted">· ${b.assignees.map((a) => `@${a.username}`).join(', ')}</span>` : ''}</li>`)
  const create = ctx.user ? html`<p><a href="${url}/new" id="new-issue" class="badge">New issue</a></p>` : ''
  const body = html`${projectHeader(ctx, p, 'issues')}${create}${filterForm(ctx, url, f)}
${items.length ? html`<ul class="list" id="issues">${items}</ul>` : html`<p class="muted">No issues match.</p>`}
${pager(ctx, url, asParams(f), total)}`
  sendHtml(req, res, 200, document(ctx, `Issues · ${p.name}`, body))
}

export async function markdown(ctx: WebContext, p: ProjectView, text: string) {
  return trusted(await renderMarkdown(ctx.app, text, { baseUrl: ctx.baseUrl, projectPath: projectPathOf(p) }))
}

function issueForms(ctx: WebContext, url: string, state: string): Html {
  if (!ctx.user) return html`<p><a href="${ctx.baseUrl}/users/sign_in">Sign in</a> to comment.</p>`
  const action = state === 'opened' ? 'close' : 'reopen'
  return html`<form method="post" action="${url}/notes" id="comment-form">${csrfField(ctx)}
<p><textarea name="note[note]" required placeholder="Write a comment (markdown)"></textarea></p><p class="bar">${commentButtons}</p></form>
<form method="post" action="${url}/${action}" class="inline" id="${action}-form">${csrfField(ctx)}<button type="submit" id="${action}-button">${action === 'close' ? 'Close issue' : 'Reopen issue'}</button></form>`
}

export async function issuePage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, iid: number) {
  const p = findVisibleProject(ctx, projectPath)
  const issue = findVisibleIssue(ctx, p, iid)
  const b = bundle(ctx, issue, false)
  const url = `${projectUrl(ctx, p)}/-/issues/${issue.iid}`
  const t = b.timeTracking
  const side = html`<aside class="side"><p><strong>Assignees</strong><br>${b.assignees.length ? b.assignees.map((a) => html`<a href="${ctx.baseUrl}/${pathPart(a.username)}">@${a.username}</a> `) : 'None'}</p>
<p><strong>Labels</strong><br><span id="labels">${b.labels.length ? labelList(b.labels) : 'None'}</span></p>
<p><strong>Milestone</strong><br>${b.milestone?.title ?? 'None'}</p>
<p id="time-tracking"><strong>Time tracking</strong><br>Spent: ${t.humanSpent ?? '0h'} · Estimate: ${t.humanEstimate ?? 'none'}</p></aside>`
  const body = html`${projectHeader(ctx, p, 'issues')}${side}
<h1 id="issue-title">${issue.title}</h1>
<p><span class="badge state-${issue.state}" id="issue-state">${issue.state === 'opened' ? 'Open' : 'Closed'}</span>
<span class="muted">#${issue.iid} opened ${ago(ctx, issue.created_at)} by @${b.author.username}</span>${ctx.user ? html` <a href="${url}/edit" id="edit-issue">Edit</a>` : ''}${issue.confidential ? html` <span class="label">confidential</span>` : ''}</p>
<div class="markdown" id="issue-description">${issue.description ? await markdown(ctx, p, issue.description) : html`<p class="muted">No description.</p>`}</div>
<h2>Activity</h2><div id="notes">${await threadsHtml(ctx, issueThreadsOf(ctx, p, issue))}</div>${issueForms(ctx, url, issue.state)}`
  sendHtml(req, res, 200, document(ctx, `${issue.title} (#${issue.iid}) · ${p.name}`, body))
}

/** The comment form's two buttons: a comment, or the first note of a thread others reply in (GitLab's Start thread). */
export const commentButtons = html`<button type="submit" id="comment-button">Comment</button>
<button type="submit" name="thread" value="1" id="start-thread-button">Start thread</button>`

/** The comment form's `note[note]` added through the notes service; false (nothing written) when it is blank. */
export async function commentFromForm(ctx: WebContext, p: ProjectView, n: Noteable, form: Record<string, unknown>): Promise<boolean> {
  const note = (form.note as Record<string, unknown> | undefined)?.note
  const text = typeof note === 'string' ? note.replace(/\r\n?/g, '\n') : ''
  if (!text.trim()) return false
  if (form.thread === '1') await createDiscussion(ctx, p, n, { body: text })
  else createNote(ctx, p, n, { body: text })
  return true
}

/** The issue's forms: the CSRF token first, then the same services (and policy checks) as the API. */
export async function issuePost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, iid: number, action: 'notes' | 'close' | 'reopen') {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = findVisibleProject(ctx, projectPath)
  const issue = findVisibleIssue(ctx, p, iid)
  const url = `${projectUrl(ctx, p)}/-/issues/${issue.iid}`
  if (action === 'notes') {
    if (!(await commentFromForm(ctx, p, { kind: 'Issue', row: issue }, form))) return redirect(res, url)
  } else {
    editIssue(ctx, p, issue, { state_event: action })
  }
  await afterCommit(ctx.app)
  redirect(res, url)
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^issues$/, page: (ctx, req, res, project) => issuesPage(ctx, req, res, project) },
  { method: 'GET', rest: /^issues\/(\d{1,9})$/, page: (ctx, req, res, project, m) => issuePage(ctx, req, res, project, Number(m[1])) },
  {
    method: 'POST', path: underProject(String.raw`issues\/(?<iid>\d{1,9})\/(?<action>notes|close|reopen)`),
    page: (ctx, req, res) => issuePost(ctx, req, res, req.params.project, Number(req.params.iid), req.params.action as 'notes' | 'close' | 'reopen'),
  },
]
