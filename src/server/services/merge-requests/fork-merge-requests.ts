// What deleting a fork does to the merge requests it opened in other projects (GitLab's Projects::UnlinkForkService,
// run by Projects::DestroyService): the open ones are closed by the deleter; all of them stay in their target project,
// their source_project_id set to null by the foreign key.
import { nowIso, type RequestContext } from '../../context.js'
import * as store from '../../store/merge-requests.js'
import type { ProjectView } from '../../store/projects.js'
import { addSystemNote } from '../issuables/discussion.js'
import { closingEdit } from './merge-request-writes.js'
import { recordResourceEvents, snapshotIssuable } from '../issuables/resource-events.js'
import { emitHookEvent } from '../hooks/webhook-events.js'

/**
 * Closes the open merge requests from `fork` into other projects, as MergeRequests::CloseService does (the `closed`
 * system note and state event; an auto-merge aborted with its note); call inside the transaction that deletes the fork.
 */
export function closeMergeRequestsFromFork(ctx: RequestContext, fork: ProjectView): store.MergeRequestRow[] {
  const db = ctx.app.db
  const open = store.openFromProjectElsewhere(db, fork.id)
  const now = nowIso(ctx)
  for (const mr of open) {
    const before = snapshotIssuable(ctx, mr.id)
    const { patch, notes } = closingEdit(ctx, mr, now)
    store.updateMergeRequest(db, mr.id, { ...patch, updated_at: now })
    for (const body of notes) addSystemNote(ctx, mr.id, body, now)
    recordResourceEvents(ctx, before, now)
  }
  return open
}

/** The `close` webhook and feed event of each merge request closed, heard once the deletion is committed. */
export function announceClosed(ctx: RequestContext, closed: store.MergeRequestRow[]) {
  for (const mr of closed) {
    emitHookEvent(ctx.app, { kind: 'merge_request', action: 'close', projectId: mr.project_id, userId: ctx.user!.id, mergeRequestId: mr.id })
  }
}
