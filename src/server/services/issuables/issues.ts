// Issues: visibility-aware reads and lists, create, edit (close, reopen, labels, assignees, milestone, lock), delete.
import type { CreateIssueInput, EditIssueInput, IssueListInput } from '../../../contract/endpoints/issues.js'
import { forbidden, notFound, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import {
  canAdminIssues, canReadIssue, canSetIssueHistory, effectiveProjectLevel, GUEST, OWNER, REPORTER,
} from '../../policy.js'
import type { IssueBundle } from '../../present/issues.js'
import * as store from '../../store/issues.js'
import { closingCounts } from '../merge-requests/merge-request-links.js'
import { milestoneReference } from './milestones.js'
import type { ProjectView } from '../../store/projects.js'
import * as discussion from './discussion.js'
import { issuableBundles, issuableFilters, issuableRelations, type IssuableRelations, type ListWhere } from './issuable-lists.js'
import { resolveLabels } from './labels.js'
import { blankSnapshot, recordResourceEvents, snapshotIssuable } from './resource-events.js'
import { emitHookEvent } from '../hooks/webhook-events.js'
import { transaction } from '../../store/db.js'

export type { IssueRow } from '../../store/issues.js'

export const issueNotFound = () => notFound('Issue')

/** An issue of a visible project that the caller may read; confidential ones stay 404 to others. */
export function findVisibleIssue(ctx: RequestContext, p: ProjectView, iid: number): store.IssueRow {
  const issue = store.findIssueByIid(ctx.app.db, p.id, iid)
  if (!issue) throw issueNotFound()
  if (issue.confidential && !canReadIssue(ctx, p, issue, store.assigneeIdsOf(ctx.app.db, [issue.id]).get(issue.id) ?? [])) throw issueNotFound()
  return issue
}

/** What a page of issues links to by issue: besides the issuables' relations, the merge requests closing each. */
export interface Relations extends IssuableRelations { mergeRequests: Map<number, number> }

// One statement with the four as correlated columns was ~10 us faster a page, but its temp b-trees left the server
// ~55 MB larger after a load of single-issue reads (web bench): four plain ones.
export function relationsOf(ctx: RequestContext, rows: store.IssueRow[]): Relations {
  const ids = rows.map((r) => r.id)
  return { ...issuableRelations(ctx, ids), mergeRequests: closingCounts(ctx, ids) }
}

/** Everything the presenter needs for a page of issues, one query per table. */
export function bundles(ctx: RequestContext, rows: store.IssueRow[], single?: { links: boolean }, relations = relationsOf(ctx, rows)): IssueBundle[] {
  return issuableBundles(ctx, rows, relations).bundles.map((b) => {
    const out = b as IssueBundle
    out.mergeRequestsCount = relations.mergeRequests.get(b.row.id) ?? 0
    out.subscribed = single ? discussion.isSubscribed(ctx, b.row, relations.assignees.get(b.row.id) ?? []) : undefined
    out.links = single?.links
    return out
  })
}

export const bundle = (ctx: RequestContext, row: store.IssueRow, links = true) => bundles(ctx, [row], { links })[0]

/** A page of issues with their rows and relations. */
export const listIssues = (ctx: RequestContext, input: IssueListInput, where: ListWhere) => store.listIssues(ctx.app.db, filtersOf(ctx, input, where))

/** A page of issues as ids and list versions (for lists served from remembered texts, see issue-texts.ts). */
export const listIssueVersions = (ctx: RequestContext, input: IssueListInput, where: ListWhere) => store.listIssueVersions(ctx.app.db, filtersOf(ctx, input, where))

const filtersOf = (ctx: RequestContext, input: IssueListInput, where: ListWhere): store.IssueFilters => ({
  ...issuableFilters(ctx, input, where),
  readsConfidential: where.project ? effectiveProjectLevel(ctx, where.project) >= REPORTER : undefined,
  confidential: input.confidential,
})

function checkTitle(title: string): string {
  if (!title.trim()) throw validationFailed({ title: ["can't be blank"] })
  return title
}

function requireWritable(p: ProjectView) {
  if (p.archived) throw forbidden('Project is archived')
}

const { addSystemNote, assignedTodos, assignable, milestoneFor, sameSet, labelNote, assigneeNote, nextLabels } = discussion

export function createIssue(ctx: RequestContext, p: ProjectView, input: CreateIssueInput): store.IssueRow {
  requireWritable(p)
  // Merge requests do not exist yet, so none can have discussions to resolve.
  if (input.merge_request_to_resolve_discussions_of !== undefined) throw notFound('Merge Request')
  const title = checkTitle(input.title)
  const db = ctx.app.db
  const level = effectiveProjectLevel(ctx, p)
  const history = level >= OWNER
  // Guests may set labels, assignees and milestone only when creating (compat-notes §2.1); non-members of public projects may not.
  const metadata = level >= GUEST
  const now = nowIso(ctx)
  const createdAt = history && input.created_at ? new Date(input.created_at).toISOString() : now
  if (history && input.iid !== undefined && store.iidTaken(db, p.id, input.iid)) throw validationFailed({ iid: ['has already been taken'] })
  const assigneeIds = metadata ? assignable(ctx, p, input.assignee_ids ?? (input.assignee_id ? [input.assignee_id] : [])) : []
  const milestoneId = metadata && input.milestone_id !== undefined ? milestoneFor(ctx, p, input.milestone_id) ?? null : null
  const created = transaction(db, () => {
    const iid = store.allocateIid(db, p.id, 'issues', history ? input.iid : undefined)
    const labelIds = metadata && input.labels?.length ? resolveLabels(ctx, p, input.labels, level >= REPORTER).map((l) => l.id) : []
    const issue = store.insertIssue(db, {
      project_id: p.id, iid, title, description: input.description ?? null, state: 'opened', author_id: ctx.user!.id,
      milestone_id: milestoneId, confidential: input.confidential ? 1 : 0, discussion_locked: 0, due_date: input.due_date || null,
      created_at: createdAt, updated_at: createdAt,
    }, { labelIds, assigneeIds })
    const issueId = issue.id
    assignedTodos(ctx, { id: issueId, project_id: p.id, title }, assigneeIds, now)
    store.insertUserAgentDetail(db, issueId, ctx.client?.userAgent ?? '', ctx.client?.ip ?? '')
    recordResourceEvents(ctx, blankSnapshot(issueId), createdAt)
    return issue
  })
  emitHookEvent(ctx.app, { kind: 'issue', action: 'open', projectId: p.id, userId: ctx.user!.id, issueId: created.id })
  return created
}

export function editIssue(ctx: RequestContext, p: ProjectView, issue: store.IssueRow, input: EditIssueInput): store.IssueRow {
  const db = ctx.app.db
  const user = ctx.user!
  const currentAssignees = store.assigneeIdsOf(db, [issue.id]).get(issue.id) ?? []
  const admin = canAdminIssues(ctx, p)
  // Authors and assignees may edit title and description and close or reopen; the rest needs Reporter (compat-notes §2.1).
  if (!admin && issue.author_id !== user.id && !currentAssignees.includes(user.id)) throw forbidden()
  requireWritable(p)
  const now = nowIso(ctx)
  const patch: store.IssuePatch = {}
  const notes: string[] = []
  if (input.title !== undefined && input.title !== issue.title) {
    patch.title = checkTitle(input.title)
    notes.push(`changed title from **${issue.title}** to **${patch.title}**`)
  }
  if (input.description !== undefined && input.description !== issue.description) {
    patch.description = input.description
    notes.push('changed the description')
  }
  if (input.state_event === 'close' && issue.state === 'opened') {
    Object.assign(patch, { state: 'closed', closed_at: now, closed_by_id: user.id })
    notes.push('closed')
  } else if (input.state_event === 'reopen' && issue.state === 'closed') {
    Object.assign(patch, { state: 'opened', closed_at: null, closed_by_id: null })
    notes.push('reopened')
  }
  let labels: number[] | undefined
  let assignees: number[] | undefined
  if (admin) {
    if (input.confidential !== undefined && (input.confidential ? 1 : 0) !== issue.confidential) {
      patch.confidential = input.confidential ? 1 : 0
      notes.push(input.confidential ? 'made the issue confidential' : 'made the issue visible to everyone')
    }
    if (input.discussion_locked !== undefined && (input.discussion_locked ? 1 : 0) !== issue.discussion_locked) {
      patch.discussion_locked = input.discussion_locked ? 1 : 0
      notes.push(input.discussion_locked ? 'locked this issue' : 'unlocked this issue')
    }
    if (input.due_date !== undefined && (input.due_date || null) !== issue.due_date) {
      patch.due_date = input.due_date || null
      notes.push(patch.due_date ? `changed due date to ${patch.due_date}` : 'removed due date')
    }
    if (input.milestone_id !== undefined) {
      const next = milestoneFor(ctx, p, input.milestone_id)
      if (next !== undefined && next !== issue.milestone_id) {
        patch.milestone_id = next
        notes.push(next === null ? 'removed milestone' : `changed milestone to ${milestoneReference(ctx, next)}`)
      }
    }
    const wanted = input.assignee_ids ?? (input.assignee_id !== undefined ? [input.assignee_id] : undefined)
    if (wanted !== undefined) {
      const next = assignable(ctx, p, wanted)
      if (!sameSet(next, currentAssignees)) assignees = next
    }
  }
  const history = canSetIssueHistory(ctx, p) && input.updated_at !== undefined
  const edited = transaction(db, () => {
    const before = snapshotIssuable(ctx, issue.id)
    if (admin) {
      const current = store.labelIdsOf(db, issue.id)
      const next = nextLabels(ctx, p, current, input)
      if (next !== undefined && !sameSet(next, current)) {
        labels = next
        notes.push(labelNote(next.filter((id) => !current.includes(id)), current.filter((id) => !next.includes(id))))
      }
    }
    if (assignees !== undefined) {
      const added = assignees.filter((id) => !currentAssignees.includes(id))
      const removed = currentAssignees.filter((id) => !assignees!.includes(id))
      notes.push(assigneeNote(store.usersByIds(db, [...added, ...removed]), added, removed))
      store.setIssueAssignees(db, issue.id, assignees)
      assignedTodos(ctx, issue, added, now)
    }
    if (labels !== undefined) store.setIssueLabels(db, issue.id, labels)
    const changed = notes.length > 0 || Object.keys(patch).length > 0
    if (changed || history) patch.updated_at = history ? new Date(input.updated_at!).toISOString() : now
    store.updateIssue(db, issue.id, patch)
    for (const body of notes) addSystemNote(ctx, issue.id, body, now)
    recordResourceEvents(ctx, before, now)
    return store.findIssueById(db, issue.id)!
  })
  if (notes.length) emitIssueEdited(ctx, issue, edited)
  return edited
}

/** The issue hook of an edit: close, reopen or update, with GitLab's changes of the plain fields. */
function emitIssueEdited(ctx: RequestContext, before: store.IssueRow, after: store.IssueRow) {
  const action = before.state !== after.state ? (after.state === 'closed' ? 'close' : 'reopen') : 'update'
  const changes: Record<string, { previous: unknown; current: unknown }> = {}
  for (const key of ['title', 'description', 'state_id', 'confidential', 'due_date', 'milestone_id', 'updated_at'] as const) {
    const was = key === 'state_id' ? (before.state === 'opened' ? 1 : 2) : before[key]
    const now = key === 'state_id' ? (after.state === 'opened' ? 1 : 2) : after[key]
    if (was !== now) changes[key] = { previous: was, current: now }
  }
  emitHookEvent(ctx.app, { kind: 'issue', action, projectId: after.project_id, userId: ctx.user!.id, issueId: after.id, changes })
}

export function deleteIssue(ctx: RequestContext, p: ProjectView, issue: store.IssueRow) {
  if (effectiveProjectLevel(ctx, p) < OWNER) throw forbidden()
  transaction(ctx.app.db, () => store.deleteIssueRow(ctx.app.db, issue.id))
}

