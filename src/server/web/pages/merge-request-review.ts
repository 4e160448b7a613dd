// The review's forms on a merge request: comment on a diff line (now, or as a draft of a review), reply, resolve and
// unresolve threads, delete a draft, submit the review (every draft published at once), approve and unapprove. Each
// carries the CSRF token and goes through the same services, and permission checks, as the API.
import { underProject, type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { PositionInput } from '../../../contract/endpoints/discussions.js'
import { notFound } from '../../../core/errors.js'
import { afterCommit } from '../../http/mount.js'
import type { RouteRequest } from '../../http/router.js'
import { createDiscussion, replyTo, resolveDiscussion } from '../../services/issuables/index.js'
import { createDraftNote, deleteDraftNote, findDraftNote, publishDraftNotes } from '../../services/merge-requests/index.js'
import { approvalsOf, approve, unapprove } from '../../services/merge-requests/index.js'
import { findVisibleMergeRequest, type MergeRequestRow } from '../../services/merge-requests/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import type { ProjectView } from '../../store/projects.js'
import { readForm, type WebContext } from '../context.js'
import { html, pathPart, type Html } from '../html.js'
import { csrfField, redirect } from '../layout.js'
import { checked, text } from './issuable-form.js'
import { projectUrl, refuseForm } from './parts.js'
import { returnUrl, type ReturnTo } from './threads.js'

/** Approvers, and the viewer's approve or revoke button. */
export function approvalWidget(ctx: WebContext, p: ProjectView, mr: MergeRequestRow): Html {
  if (!ctx.user) return html``
  const a = approvalsOf(ctx, p, mr)
  const url = `${projectUrl(ctx, p)}/-/merge_requests/${mr.iid}`
  const button = a.userCanApprove
    ? html`<form method="post" action="${url}/approve" class="inline">${csrfField(ctx)}<button type="submit" id="approve-button">Approve</button></form>`
    : a.userHasApproved ? html`<form method="post" action="${url}/unapprove" class="inline">${csrfField(ctx)}<button type="submit" id="unapprove-button">Revoke approval</button></form>` : ''
  const who = a.approvers.length
    ? html`Approved by ${a.approvers.map((u) => html`<a href="${ctx.baseUrl}/${pathPart(u.username)}">@${u.username}</a> `)}` : html`<span class="muted">No approvals yet.</span>`
  return html`<section class="note bar" id="approvals"><span id="approved-by">${who}</span>${button}</section>`
}

export type ReviewAction = 'discussions' | 'reply' | 'resolve' | 'unresolve' | 'approve' | 'unapprove' | 'bulk_publish' | 'delete_draft'

const RETURNS: readonly ReturnTo[] = ['overview', 'diffs', 'parallel']

const lineNumber = (v: unknown) => {
  const n = Number(text(v, 12))
  return text(v, 12) !== '' && Number.isSafeInteger(n) && n > 0 ? n : undefined
}

/** The diff position the line form carries (the shas the page was shown with, so a moved head is caught). */
function positionOf(form: Record<string, unknown>): PositionInput | undefined {
  const f = form.position
  if (!f || typeof f !== 'object') return undefined
  const v = f as Record<string, unknown>
  return {
    base_sha: text(v.base_sha, 64), start_sha: text(v.start_sha, 64), head_sha: text(v.head_sha, 64), position_type: 'text',
    old_path: text(v.old_path, 4096) || undefined, new_path: text(v.new_path, 4096) || undefined, old_line: lineNumber(v.old_line), new_line: lineNumber(v.new_line),
  }
}

async function act(ctx: WebContext, p: ProjectView, mr: MergeRequestRow, action: ReviewAction, form: Record<string, unknown>, id: string | undefined): Promise<string | null> {
  const n = { kind: 'MergeRequest' as const, row: mr }
  // The overview's comment box names its text note[note] (it also posts to …/notes); the line and reply forms, note.
  const note = text(form.note && typeof form.note === 'object' && !Array.isArray(form.note) ? (form.note as Record<string, unknown>).note : form.note)
  const review = checked(form.review)
  switch (action) {
    case 'discussions': {
      if (!note.trim()) return null
      const position = positionOf(form)
      if (review) return `draft_${(await createDraftNote(ctx, p, n, { note, position })).id}`
      return `discussion_${(await createDiscussion(ctx, p, n, { body: note, position })).id}`
    }
    case 'reply':
      if (!note.trim()) return null
      if (review) await createDraftNote(ctx, p, n, { note, in_reply_to_discussion_id: id })
      else replyTo(ctx, p, n, id!, { body: note })
      return `discussion_${id}`
    case 'resolve':
    case 'unresolve':
      resolveDiscussion(ctx, p, n, id!, action === 'resolve')
      return `discussion_${id}`
    case 'delete_draft':
      deleteDraftNote(ctx, findDraftNote(ctx, n, Number(id)))
      return null
    case 'bulk_publish':
      publishDraftNotes(ctx, p, n)
      return null
    case 'approve':
      // The API answers 401 to who may not approve; a page has nothing to sign in to, so it is not there.
      if (!approvalsOf(ctx, p, mr).userCanApprove) throw notFound('Merge Request')
      approve(ctx, p, mr)
      return 'approvals'
    case 'unapprove':
      unapprove(ctx, p, mr)
      return 'approvals'
  }
}

export async function mergeRequestReviewPost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, iid: number, action: ReviewAction, id?: string) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = findVisibleProject(ctx, projectPath)
  const mr = findVisibleMergeRequest(ctx, p, iid)
  const anchor = await act(ctx, p, mr, action, form, id)
  await afterCommit(ctx.app)
  const back = text(form.return_to) as ReturnTo
  const url = returnUrl(`${projectUrl(ctx, p)}/-/merge_requests/${mr.iid}`, RETURNS.includes(back) ? back : 'overview')
  redirect(res, anchor ? `${url}#${anchor}` : url)
}

const MR_REVIEW = underProject(String.raw`merge_requests\/(?<iid>\d{1,9})\/(?:(?<action>discussions|approve|unapprove|draft_notes\/bulk_publish)|discussions\/(?<discussion>[0-9a-f]{40})\/(?<threadAction>reply|resolve|unresolve)|draft_notes\/(?<draft>\d{1,9})\/delete)`)

export const routes: PageRoute[] = [
  {
    method: 'POST', path: MR_REVIEW, page: (ctx, req, res) => {
      const { project, iid, action, discussion, threadAction, draft } = req.params
      // Unmatched optional groups arrive as the text "undefined".
      const given = (v: string | undefined) => (v && v !== 'undefined' ? v : undefined)
      const what = (given(threadAction) ?? (given(draft) ? 'delete_draft' : given(action)?.replace('draft_notes/', '')))!.toLowerCase() as ReviewAction
      return mergeRequestReviewPost(ctx, req, res, project, Number(iid), what, given(discussion) ?? given(draft))
    },
  },
]
