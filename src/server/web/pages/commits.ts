// A project's commits: the paginated list of a ref (each with its last pipeline's status), and one commit with its diff (unified, or split with
// `?view=parallel`), its statuses, its last pipeline and its comments.
import { underProject, type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import { afterCommit } from '../../http/mount.js'
import type { RouteRequest } from '../../http/router.js'
import { findUserByIdOrUsername } from '../../services/users/index.js'
import { createComment, listComments } from '../../services/repository/index.js'
import { listStatuses } from '../../services/ci/index.js'
import { getCommit, getDiff, listCommits } from '../../services/repository/index.js'
import { renderMarkdown } from '../../services/markup/index.js'
import { lastPipelineOf } from '../../services/ci/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import type { ProjectView } from '../../store/projects.js'
import { readForm, type WebContext } from '../context.js'
import { timeAgo } from '../dates.js'
import { html, pathPart, trusted, type Html } from '../html.js'
import { pipelineStatusLink } from '../icons.js'
import { csrfField, document, redirect, sendHtml } from '../layout.js'
import { diffFiles, diffViewToggle } from './diff.js'
import { pager, projectPathOf, projectUrl, refuseForm } from './parts.js'
import { shortSha, statusBadge } from './pipelines.js'
import { projectHeader } from './project.js'

const ALL = { page: 1, perPage: 100, limit: 100, offset: 0 }
const title = (message: string) => message.split('\n')[0]

export async function commitsPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, ref: string) {
  const p = findVisibleProject(ctx, projectPath)
  const url = projectUrl(ctx, p)
  const refName = ref || p.default_branch || 'main'
  const { commits, total } = await listCommits(ctx, p, { ref_name: refName })
  const now = ctx.app.clock.now()
  const items = commits.map((c) => {
    const pipeline = lastPipelineOf(ctx, p, c.id)
    return html`<li><a href="${url}/-/commit/${c.id}"><strong>${title(c.message)}</strong></a>${pipeline ? html` ${pipelineStatusLink(url, pipeline)}` : ''}
<div class="muted">${c.authorName} authored ${timeAgo(now, c.authoredDate)} · <code>${shortSha(c.id)}</code></div></li>`
  })
  const body = html`${projectHeader(ctx, p, 'commits')}<h2>Commits on <span id="commits-ref">${refName}</span></h2>
${items.length ? html`<ul class="list" id="commits">${items}</ul>` : html`<p class="muted">No commits.</p>`}
${pager(ctx, `${url}/-/commits/${pathPart(refName)}`, {}, total)}`
  sendHtml(req, res, 200, document(ctx, `Commits · ${refName} · ${p.name}`, body))
}

async function comments(ctx: WebContext, p: ProjectView, sha: string): Promise<Html> {
  const { rows } = await listComments({ ...ctx, page: ALL }, p, sha)
  const notes = await Promise.all(rows.map(async (c) => {
    const author = findUserByIdOrUsername(ctx.app, String(c.author_id))
    const note = trusted(await renderMarkdown(ctx.app, c.note, { baseUrl: ctx.baseUrl, projectPath: projectPathOf(p) }))
    const where = c.path ? html` <span class="muted">on ${c.path}${c.line ? `:${c.line}` : ''}</span>` : ''
    return html`<div class="note"><strong>@${author?.username ?? 'ghost'}</strong>${where} <span class="muted">${timeAgo(ctx.app.clock.now(), c.created_at)}</span><div class="markdown">${note}</div></div>`
  }))
  return html`<h3>Comments</h3>${notes.length ? html`<div id="comments">${notes}</div>` : html`<p class="muted">No comments.</p>`}${commentForm(ctx, p, sha)}`
}

function commentForm(ctx: WebContext, p: ProjectView, sha: string): Html {
  if (!ctx.user) return html`<p><a href="${ctx.baseUrl}/users/sign_in">Sign in</a> to comment.</p>`
  return html`<form method="post" action="${projectUrl(ctx, p)}/-/commit/${sha}/comments" id="comment-form">${csrfField(ctx)}
<p><textarea name="note" required placeholder="Comment on this commit (markdown)"></textarea></p><p><button type="submit" id="comment-button">Comment</button></p></form>`
}

/** The commit's comment form: the CSRF token first, then the service of `POST …/repository/commits/:sha/comments`. */
export async function commitCommentPost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, sha: string) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = findVisibleProject(ctx, projectPath)
  const c = await getCommit(ctx, p, sha)
  const url = `${projectUrl(ctx, p)}/-/commit/${c.id}`
  if (typeof form.note === 'string' && form.note.trim()) {
    await createComment(ctx, p, c.id, { note: form.note })
    await afterCommit(ctx.app)
  }
  redirect(res, `${url}#comments`)
}

async function statuses(ctx: WebContext, p: ProjectView, sha: string): Promise<Html> {
  const pipeline = lastPipelineOf(ctx, p, sha)
  // The API filters statuses by one ref (the default branch unless named): the ref the commit's last pipeline ran for.
  const { rows } = await listStatuses({ ...ctx, page: ALL }, p, sha, { ref: pipeline?.ref })
  const items = rows.map((s) => html`<li>${statusBadge(s.status)} ${s.name} <span class="muted">${s.stage}${s.description ? ` · ${s.description}` : ''}</span></li>`)
  const head = pipeline ? html`<p>Pipeline <a href="${projectUrl(ctx, p)}/-/pipelines/${pipeline.id}" id="commit-pipeline">#${pipeline.id}</a> ${statusBadge(pipeline.status)}</p>` : ''
  return items.length || pipeline ? html`<h3>Statuses</h3>${head}<ul class="list" id="statuses">${items}</ul>` : html``
}

export async function commitPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, sha: string) {
  const p = findVisibleProject(ctx, projectPath)
  const c = await getCommit(ctx, p, sha)
  const view = req.query.view === 'parallel' ? 'parallel' : 'inline'
  const url = `${projectUrl(ctx, p)}/-/commit/${c.id}`
  const rest = c.message.split('\n').slice(1).join('\n').trim()
  const toggle = diffViewToggle(url, view)
  const body = html`${projectHeader(ctx, p, 'commits')}<h2 id="commit-title">${title(c.message)}</h2>
${rest ? html`<pre id="commit-message">${rest}</pre>` : ''}
<p class="muted">${c.authorName} authored ${timeAgo(ctx.app.clock.now(), c.authoredDate)} · <code id="commit-sha">${c.id}</code>
${c.parents.map((parent) => html` · parent <a href="${projectUrl(ctx, p)}/-/commit/${parent}"><code>${shortSha(parent)}</code></a>`)}</p>
${await statuses(ctx, p, c.id)}${toggle}${diffFiles(await getDiff(ctx, p, c.id), view)}${await comments(ctx, p, c.id)}`
  sendHtml(req, res, 200, document(ctx, `${title(c.message)} · ${p.name}`, body))
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^commits(?:\/(.*))?$/, page: (ctx, req, res, project, m) => commitsPage(ctx, req, res, project, m[1] ?? '') },
  { method: 'GET', rest: /^commit\/([0-9a-fA-F]{4,64})$/, page: (ctx, req, res, project, m) => commitPage(ctx, req, res, project, m[1]) },
  {
    method: 'POST', path: underProject(String.raw`commit\/(?<sha>[0-9a-f]{4,64})\/comments`),
    page: (ctx, req, res) => commitCommentPost(ctx, req, res, req.params.project, req.params.sha),
  },
]
