// What one does to an existing issue besides editing it: move, subscribe, todo, time tracking, participants, user agent detail.
import { CollabError, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canAdminIssues, canReadProject } from '../../policy.js'
import * as store from '../../store/issues.js'
import { milestonesByIds } from '../../store/milestones.js'
import { allNotesOf, copyAwards, insertNote } from '../../store/notes.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import * as discussion from './discussion.js'
import { addSystemNote } from './discussion.js'
import { resolveLabels } from './labels.js'
import { usableMilestoneByTitle } from './milestones.js'
import { projectNotFound } from '../projects/projects.js'
import { copyResourceEvents, recordResourceEvents, snapshotIssuable } from './resource-events.js'
import { transaction } from '../../store/db.js'

/** GitLab's MoveService messages, sent as `{"message": …}` with 400. */
const moveError = (message: string) => new CollabError('MOVE_FAILED', message, { status: 400 })

const ref = (p: ProjectView, iid: number) => `${p.ns_full_path}/${p.path}#${iid}`

/**
 * The issue is recreated in the target with a new iid; labels and milestone are matched there by name, notes and
 * award emoji go along, and the old issue is closed and points to the new one.
 */
export function moveIssue(ctx: RequestContext, p: ProjectView, issue: store.IssueRow, toProjectId: number): store.IssueRow {
  const db = ctx.app.db
  const target = findProjectById(db, toProjectId)
  if (!target || !canReadProject(ctx, target)) throw projectNotFound()
  if (issue.moved_to_id !== null || !canAdminIssues(ctx, p) || !canAdminIssues(ctx, target) || target.archived) {
    throw moveError('Cannot move issue due to insufficient permissions!')
  }
  if (target.id === p.id) throw moveError('Cannot move issue to project it originates from!')
  const now = nowIso(ctx)
  const user = ctx.user!
  return transaction(db, () => {
    const labelNames = store.labelNamesOf(db, [issue.id]).get(issue.id) ?? []
    const labelIds = resolveLabels(ctx, target, labelNames, false).map((l) => l.id)
    const milestone = issue.milestone_id !== null ? milestonesByIds(db, [issue.milestone_id]).get(issue.milestone_id) : undefined
    const milestoneId = milestone ? usableMilestoneByTitle(ctx, target, milestone.title)?.id ?? null : null
    const { id: newId } = store.insertIssue(db, {
      project_id: target.id, iid: store.allocateIid(db, target.id, 'issues'), title: issue.title, description: issue.description,
      state: issue.state, author_id: issue.author_id, milestone_id: milestoneId, confidential: issue.confidential,
      discussion_locked: issue.discussion_locked, due_date: issue.due_date, time_estimate: issue.time_estimate,
      total_time_spent: issue.total_time_spent, created_at: issue.created_at, updated_at: now,
      closed_at: issue.closed_at, closed_by_id: issue.closed_by_id,
    })
    store.setIssueLabels(db, newId, labelIds)
    store.setIssueAssignees(db, newId, store.assigneeIdsOf(db, [issue.id]).get(issue.id) ?? [])
    for (const { id: _, ...n } of allNotesOf(db, issue.id)) insertNote(db, { ...n, noteable_id: newId })
    copyAwards(db, issue.id, newId)
    copyResourceEvents(ctx, issue.id, newId, target.id)
    const moved = store.findIssueById(db, newId)!
    addSystemNote(ctx, newId, `moved from ${ref(p, issue.iid)}`, now)
    const before = snapshotIssuable(ctx, issue.id)
    store.updateIssue(db, issue.id, {
      moved_to_id: newId, updated_at: now,
      ...(issue.state === 'opened' ? { state: 'closed' as const, closed_at: now, closed_by_id: user.id } : {}),
    })
    addSystemNote(ctx, issue.id, `moved to ${ref(target, moved.iid)}`, now)
    if (issue.state === 'opened') addSystemNote(ctx, issue.id, 'closed', now)
    recordResourceEvents(ctx, before, now)
    return store.findIssueById(db, newId)!
  })
}

// Subscriptions, todos, time tracking and participants are the discussion layer's, the same for every kind; an issue
// takes part as this noteable.
export const issueNoteable = (issue: store.IssueRow) => ({ kind: 'Issue' as const, row: issue })

export function userAgentDetail(ctx: RequestContext, issue: store.IssueRow) {
  const detail = store.findUserAgentDetail(ctx.app.db, issue.id)
  if (!detail) throw notFound('User Agent Detail')
  return { user_agent: detail.user_agent, ip_address: detail.ip_address, spamfilter_submitted: detail.submitted === 1 }
}
