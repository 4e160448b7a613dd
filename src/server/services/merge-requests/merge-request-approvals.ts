// Approvals as GitLab FOSS keeps them: any Developer may approve an open merge request once; no approval rules.
import { CollabError, unauthorized } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { DEVELOPER, effectiveProjectLevel, MAINTAINER } from '../../policy.js'
import { transaction } from '../../store/db.js'
import { usersByIds } from '../../store/issues.js'
import * as store from '../../store/merge-requests.js'
import type { ProjectView } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import { addSystemNote } from '../issuables/discussion.js'
import { emitHookEvent } from '../hooks/webhook-events.js'

export interface Approvals { approvers: UserRow[]; userHasApproved: boolean; userCanApprove: boolean }

const mayApprove = (ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow) => mr.state === 'opened' && effectiveProjectLevel(ctx, p) >= DEVELOPER

export function approvalsOf(ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow): Approvals {
  const ids = store.approverIds(ctx.app.db, mr.id)
  const users = usersByIds(ctx.app.db, ids)
  const mine = ids.includes(ctx.user!.id)
  return { approvers: ids.flatMap((id) => users.get(id) ?? []), userHasApproved: mine, userCanApprove: !mine && mayApprove(ctx, p, mr) }
}

/** 401 when the caller may not approve or already did, 409 when `sha` is not the source head. */
export function approve(ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow, sha?: string): Approvals {
  if (!approvalsOf(ctx, p, mr).userCanApprove) throw unauthorized()
  if (sha !== undefined && sha !== mr.source_sha) {
    throw new CollabError('SHA_MISMATCH', `SHA does not match HEAD of source branch: ${mr.source_sha}`, { status: 409 })
  }
  const now = nowIso(ctx)
  transaction(ctx.app.db, () => {
    store.addApproval(ctx.app.db, mr.id, ctx.user!.id, now)
    addSystemNote(ctx, mr.id, 'approved this merge request', now)
  })
  emitHookEvent(ctx.app, { kind: 'merge_request_approval', projectId: p.id, userId: ctx.user!.id, mergeRequestId: mr.id })
  return approvalsOf(ctx, p, mr)
}

export function unapprove(ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow): Approvals {
  const now = nowIso(ctx)
  transaction(ctx.app.db, () => {
    if (!store.removeApprovals(ctx.app.db, mr.id, ctx.user!.id)) throw new CollabError('NOT_APPROVED', '404 Not Found', { status: 404 })
    addSystemNote(ctx, mr.id, 'unapproved this merge request', now)
  })
  return approvalsOf(ctx, p, mr)
}

/** Clears every approval; Maintainers only (GitLab keeps it for bots acting for the project). */
export function resetApprovals(ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow) {
  if (effectiveProjectLevel(ctx, p) < MAINTAINER) throw unauthorized()
  store.removeApprovals(ctx.app.db, mr.id)
}
