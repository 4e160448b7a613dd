// One merge request's overview: the rendered description, branches, labels, people, merge status in words, the head
// pipeline, the notes, and the forms (comment, close/reopen, merge) that go through the same services as the API.
import { underProject, type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import { CollabError } from '../../../core/errors.js'
import { afterCommit } from '../../http/mount.js'
import type { RouteRequest } from '../../http/router.js'
import { mergeMergeRequest } from '../../services/merge-requests/index.js'
import { updateMergeRequest } from '../../services/merge-requests/index.js'
import { bundle, findVisibleMergeRequest, singleOf, type MergeRequestRow } from '../../services/merge-requests/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import type { MergeRequestBundle } from '../../present/merge-requests.js'
import type { ProjectView } from '../../store/projects.js'
import { readForm, type WebContext } from '../context.js'
import { ago } from '../dates.js'
import { html, pathPart, type Html } from '../html.js'
import { csrfField, document, redirect, sendHtml } from '../layout.js'
import { commentButtons, commentFromForm, markdown } from './issues.js'
import { mergeRequestHead } from './merge-request-head.js'
import { approvalWidget } from './merge-request-review.js'
import { reviewBar, reviewOf, threadsHtml } from './threads.js'
import { labelList, projectUrl, refuseForm } from './parts.js'
import { shortSha, statusBadge } from './pipelines.js'

/** detailed_merge_status in words, as the merge widget says it. */
const STATUS_WORDS: Record<string, string> = {
  mergeable: 'Ready to merge.',
  conflict: 'Merge blocked: the source branch has conflicts with the target branch.',
  need_rebase: 'Merge blocked: the source branch must be rebased onto the target branch.',
  draft_status: 'Merge blocked: the merge request is a draft. Mark it as ready to merge.',
  commits_status: 'Merge blocked: the source branch is missing or has no commits to merge.',
  discussions_not_resolved: 'Merge blocked: all threads must be resolved.',
  ci_must_pass: 'Merge blocked: the pipeline must succeed.',
  ci_still_running: 'Merge blocked: the pipeline is still running.',
  unchecked: 'Checking whether it can be merged.',
  checking: 'Checking whether it can be merged.',
  preparing: 'Preparing the merge request.',
}

/** Why a merge from the form failed, by a fixed key in the redirect: no text from the request is reflected. */
const MERGE_ERRORS: Record<string, string> = {
  sha_mismatch: 'The source branch changed since this page was loaded. Review the new commits, then merge again.',
  cannot_merge: 'The merge failed: the branches conflict or the source branch must be rebased.',
  not_allowed: 'This merge request cannot be merged now (closed, a draft, missing commits, or waiting for its pipeline).',
  stale: 'The target branch moved during the merge. Try again.',
  unauthorized: 'You are not allowed to merge into the target branch.',
}

const ERROR_KEYS: Record<string, string> = {
  SHA_MISMATCH: 'sha_mismatch', CANNOT_BE_MERGED: 'cannot_merge', METHOD_NOT_ALLOWED: 'not_allowed', NOT_OPEN: 'not_allowed', STALE: 'stale', UNAUTHORIZED: 'unauthorized',
}

const userLink = (ctx: WebContext, u: { username: string }) => html`<a href="${ctx.baseUrl}/${pathPart(u.username)}">@${u.username}</a> `

function sidebar(ctx: WebContext, b: MergeRequestBundle): Html {
  const people = (list: { username: string }[]) => (list.length ? list.map((u) => userLink(ctx, u)) : 'None')
  return html`<aside class="side"><p><strong>Assignees</strong><br><span id="mr-assignees">${people(b.assignees)}</span></p>
<p><strong>Reviewers</strong><br><span id="mr-reviewers">${people(b.reviewers)}</span></p>
<p><strong>Labels</strong><br><span id="labels">${b.labels.length ? labelList(b.labels) : 'None'}</span></p>
<p><strong>Milestone</strong><br><span id="mr-milestone">${b.milestone?.title ?? 'None'}</span></p></aside>`
}

function pipelineLine(ctx: WebContext, head: ReturnType<typeof singleOf>['headPipeline']): Html {
  if (!head) return html``
  const href = `${ctx.baseUrl}/${pathPart(head.projectPath)}/-/pipelines/${head.row.id}`
  return html`<p id="mr-pipeline">Pipeline <a href="${href}">#${head.row.id}</a> ${statusBadge(head.row.status)}
<span class="muted">for <code>${shortSha(head.row.sha)}</code></span></p>`
}

function mergeForm(ctx: WebContext, url: string, mr: MergeRequestRow): Html {
  const removeDefault = mr.should_remove_source_branch === null ? mr.force_remove_source_branch === 1 : mr.should_remove_source_branch === 1
  return html`<form method="post" action="${url}/merge" id="merge-form">${csrfField(ctx)}<input type="hidden" name="sha" value="${mr.source_sha ?? ''}">
<p><label><input type="checkbox" name="should_remove_source_branch" value="1" id="remove-source-branch"${removeDefault ? html` checked` : ''}> Delete source branch</label>
<label><input type="checkbox" name="squash" value="1" id="squash"${mr.squash ? html` checked` : ''}> Squash commits</label></p>
<p><textarea name="merge_commit_message" placeholder="Merge commit message (optional; the default names the branches and the merge request)"></textarea></p>
<p><button type="submit" id="merge-button">Merge</button></p></form>`
}

/** The merge widget: what state the merge request is in and, for whoever may merge, the form. */
function mergeWidget(ctx: WebContext, p: ProjectView, b: MergeRequestBundle, canMerge: boolean, error: string | undefined): Html {
  const mr = b.row
  const url = `${projectUrl(ctx, p)}/-/merge_requests/${mr.iid}`
  const flash = error && Object.hasOwn(MERGE_ERRORS, error) ? html`<p class="flash" id="merge-error">${MERGE_ERRORS[error]}</p>` : ''
  if (mr.state === 'merged') {
    const sha = mr.merge_commit_sha ?? mr.squash_commit_sha
    return html`<section class="note" id="merge-widget"><p id="merge-status">Merged${b.mergedBy ? html` by ${userLink(ctx, b.mergedBy)}` : ''}
${mr.merged_at ? html`<span class="muted">${ago(ctx, mr.merged_at)}</span>` : ''}
${sha ? html` · <a href="${projectUrl(ctx, p)}/-/commit/${sha}" id="merge-commit"><code>${shortSha(sha)}</code></a>` : ''}</p></section>`
  }
  if (mr.state !== 'opened') return html`<section class="note" id="merge-widget"><p id="merge-status">Closed: nothing will be merged.</p></section>`
  const words = STATUS_WORDS[b.detailedMergeStatus] ?? b.detailedMergeStatus
  return html`<section class="note" id="merge-widget">${flash}<p id="merge-status">${words}</p>
${mr.merge_error ? html`<p class="flash">${mr.merge_error}</p>` : ''}${canMerge ? mergeForm(ctx, url, mr) : ''}</section>`
}

function commentForms(ctx: WebContext, url: string, state: string): Html {
  if (!ctx.user) return html`<p><a href="${ctx.baseUrl}/users/sign_in">Sign in</a> to comment.</p>`
  const action = state === 'opened' ? 'close' : state === 'closed' ? 'reopen' : null
  return html`<form method="post" action="${url}/notes" id="comment-form">${csrfField(ctx)}
<p><textarea name="note[note]" required placeholder="Write a comment (markdown)"></textarea></p><p class="bar">${commentButtons}
<button type="submit" name="review" value="1" formaction="${url}/discussions" id="comment-review-button">Add to review</button></p></form>
${action ? html`<form method="post" action="${url}/${action}" class="inline" id="${action}-form">${csrfField(ctx)}<button type="submit" id="${action}-button">${action === 'close' ? 'Close merge request' : 'Reopen merge request'}</button></form>` : ''}`
}

export async function overviewPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView, mr: MergeRequestRow) {
  const b = bundle(ctx, mr)
  const single = singleOf(ctx, mr)
  const url = `${projectUrl(ctx, p)}/-/merge_requests/${mr.iid}`
  const error = typeof req.query.merge_error === 'string' ? req.query.merge_error : undefined
  const review = reviewOf(ctx, p, mr)
  const edit = ctx.user ? html` · <a href="${url}/edit" id="edit-mr">Edit</a>` : ''
  const body = html`${mergeRequestHead(ctx, p, mr, 'overview', b.draft)}${sidebar(ctx, b)}
<p class="muted">Opened ${ago(ctx, mr.created_at)} by ${userLink(ctx, b.author)}${edit}</p>
<div class="markdown" id="mr-description">${mr.description ? await markdown(ctx, p, mr.description) : html`<p class="muted">No description.</p>`}</div>
${pipelineLine(ctx, single.headPipeline)}${approvalWidget(ctx, p, mr)}${mergeWidget(ctx, p, b, single.canMerge, error)}${await reviewBar(ctx, review, 'overview')}
<h2>Activity</h2><div id="notes">${await threadsHtml(ctx, review)}</div>${commentForms(ctx, url, mr.state)}`
  sendHtml(req, res, 200, document(ctx, `${mr.title} (!${mr.iid}) · ${p.name}`, body))
}

export type MergeRequestAction = 'notes' | 'close' | 'reopen' | 'merge'

const checked = (v: unknown) => v === '1' || v === 'on' || v === 'true'

/** The merge form: the head sha it was shown with, so a push since then fails instead of merging unseen commits. */
async function mergeFromForm(ctx: WebContext, p: ProjectView, mr: MergeRequestRow, form: Record<string, unknown>): Promise<string | null> {
  const message = typeof form.merge_commit_message === 'string' && form.merge_commit_message.trim() ? form.merge_commit_message : undefined
  try {
    await mergeMergeRequest(ctx, p, mr, {
      sha: typeof form.sha === 'string' ? form.sha : '', squash: checked(form.squash),
      should_remove_source_branch: checked(form.should_remove_source_branch), merge_commit_message: message,
    })
    return null
  } catch (err) {
    const key = err instanceof CollabError ? ERROR_KEYS[err.code] : undefined
    if (!key) throw err
    return key
  }
}

/** The merge request's forms: the CSRF token first, then the same services (and policy checks) as the API. */
export async function mergeRequestPost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, iid: number, action: MergeRequestAction) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = findVisibleProject(ctx, projectPath)
  const mr = findVisibleMergeRequest(ctx, p, iid)
  const url = `${projectUrl(ctx, p)}/-/merge_requests/${mr.iid}`
  if (action === 'notes') {
    if (!(await commentFromForm(ctx, p, { kind: 'MergeRequest', row: mr }, form))) return redirect(res, url)
  } else if (action === 'merge') {
    const error = await mergeFromForm(ctx, p, mr, form)
    await afterCommit(ctx.app)
    return redirect(res, error ? `${url}?merge_error=${error}` : url)
  } else {
    await updateMergeRequest(ctx, p, mr, { state_event: action })
  }
  await afterCommit(ctx.app)
  redirect(res, url)
}

export const routes: PageRoute[] = [
  {
    method: 'POST', path: underProject(String.raw`merge_requests\/(?<iid>\d{1,9})\/(?<action>notes|close|reopen|merge)`),
    page: (ctx, req, res) => mergeRequestPost(ctx, req, res, req.params.project, Number(req.params.iid), req.params.action.toLowerCase() as MergeRequestAction),
  },
]
