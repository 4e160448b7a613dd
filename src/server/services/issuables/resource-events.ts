// Resource label, milestone and state events: recorded in the transaction that changes an issue or merge request
// (a snapshot before the change, the events from its difference with what is stored after), and read back.
import { CollabError } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { usersByIds } from '../../store/issues.js'
import { milestonesByIds } from '../../store/milestones.js'
import { labelIdsOf } from '../../store/noteables.js'
import * as store from '../../store/resource-events.js'

export type { EventKind, EventRows } from '../../store/resource-events.js'

/** What an issue or merge request looked like before a change, for recordResourceEvents to compare with. */
export interface IssuableSnapshot { id: number; state: string; milestoneId: number | null; labels: number[] }

export function snapshotIssuable(ctx: RequestContext, id: number): IssuableSnapshot {
  const facts = store.issuableFacts(ctx.app.db, id)
  return { id, state: facts?.state ?? 'opened', milestoneId: facts?.milestone_id ?? null, labels: labelIdsOf(ctx.app.db, id) }
}

/** A new issue or merge request: its labels and milestone at creation are recorded as added, as GitLab does. */
export const blankSnapshot = (id: number): IssuableSnapshot => ({ id, state: 'opened', milestoneId: null, labels: [] })

/** GitLab records a reopen as `reopened`, not as the `opened` state it returns to. */
const STATE_EVENT: Record<string, string> = { opened: 'reopened', closed: 'closed', merged: 'merged', locked: 'locked' }

/**
 * The events between `before` and the stored row, by the caller at `at`; call inside the transaction of the change.
 * An issue closed by a merge names the merge request, one closed by a pushed commit the commit.
 */
export function recordResourceEvents(ctx: RequestContext, before: IssuableSnapshot, at: string, source: { mergeRequestId?: number; commit?: string } = {}) {
  const db = ctx.app.db
  const after = snapshotIssuable(ctx, before.id)
  const base = { noteable_id: before.id, user_id: ctx.user!.id, created_at: at }
  for (const id of after.labels) if (!before.labels.includes(id)) store.insertLabelEvent(db, { ...base, label_id: id, action: 'add' })
  for (const id of before.labels) if (!after.labels.includes(id)) store.insertLabelEvent(db, { ...base, label_id: id, action: 'remove' })
  if (after.milestoneId !== before.milestoneId) {
    const action = after.milestoneId === null ? 'remove' : 'add'
    store.insertMilestoneEvent(db, { ...base, milestone_id: after.milestoneId ?? before.milestoneId, action, state: after.state })
  }
  if (after.state !== before.state) {
    store.insertStateEvent(db, {
      ...base, state: STATE_EVENT[after.state] ?? after.state, source_commit: source.commit ?? null, source_merge_request_id: source.mergeRequestId ?? null,
    })
  }
}

export const listResourceEvents = <K extends store.EventKind>(ctx: RequestContext, kind: K, noteableId: number) =>
  store.listEvents(ctx.app.db, kind, noteableId, ctx.page)

/** An ActiveRecord miss in GitLab: the lowercase `404 Not found`. */
export function findResourceEvent<K extends store.EventKind>(ctx: RequestContext, kind: K, noteableId: number, id: number): store.EventRows[K] {
  const row = store.findEvent(ctx.app.db, kind, noteableId, id)
  if (!row) throw new CollabError('RESOURCE_EVENT_NOT_FOUND', '404 Not found', { status: 404 })
  return row
}

/** The users, labels and milestones a page of events names, one query each. */
export function eventRelations(ctx: RequestContext, rows: { user_id: number; label_id?: number | null; milestone_id?: number | null }[]) {
  const db = ctx.app.db
  const ids = (key: 'label_id' | 'milestone_id') => rows.flatMap((r) => (r[key] ?? null) !== null ? [r[key] as number] : [])
  return {
    users: usersByIds(db, rows.map((r) => r.user_id)),
    labels: store.labelsByIds(db, ids('label_id')),
    milestones: milestonesByIds(db, ids('milestone_id')),
  }
}
export type EventRelations = ReturnType<typeof eventRelations>

/** A moved issue takes the events of the one it was moved from; call inside the move's transaction. */
export const copyResourceEvents = (ctx: RequestContext, fromId: number, toId: number, targetProjectId: number) =>
  store.copyEvents(ctx.app.db, fromId, toId, targetProjectId)
