// Creating, editing (close, reopen, retarget, lock, labels, assignees, reviewers, milestone) and deleting merge requests.
import type { CreateMergeRequestInput, UpdateMergeRequestInput } from '../../../contract/endpoints/merge-requests.js'
import { CollabError, forbidden, notFound, validationFailed } from '../../../core/errors.js'
import { emitMergeRequestOpened } from '../../app-events.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { readRef } from '../../git/read.js'
import { canReadProject, DEVELOPER, effectiveProjectLevel, OWNER, REPORTER } from '../../policy.js'
import { transaction } from '../../store/db.js'
import { allocateIid, assigneeIdsOf, labelIdsOf, setIssueAssignees as setAssignees, setIssueLabels as setLabels, usersByIds } from '../../store/issues.js'
import * as store from '../../store/merge-requests.js'
import { milestoneReference } from '../issuables/milestones.js'
import { deleteNoteable } from '../../store/noteables.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import * as discussion from '../issuables/discussion.js'
import { resolveLabels } from '../issuables/labels.js'
import { refreshMergeRequest } from './merge-request-status.js'
import { gitdirOf } from '../repository/repository.js'
import { blankSnapshot, recordResourceEvents, snapshotIssuable } from '../issuables/resource-events.js'
import { emitHookEvent } from '../hooks/webhook-events.js'

/** GitLab's handle_merge_request_errors!: model errors as an array under `message`. */
const modelError = (status: number, message: string) => new CollabError('MERGE_REQUEST_INVALID', message, { status, body: { message: [message] } })
const sameBranch = () => modelError(422, "You can't use same project/branch for source and target")
const missingBranch = (field: 'source_branch' | 'target_branch') => validationFailed({ [field]: ['does not exist'] })
const twinExists = (twin: store.MergeRequestRow) => modelError(409, `Another open merge request already exists for this source branch: !${twin.iid}`)

function checkTitle(title: string): string {
  if (!title.trim()) throw validationFailed({ title: ["can't be blank"] })
  return title
}

const branchExists = async (ctx: RequestContext, p: ProjectView, branch: string) => (await readRef(gitdirOf(ctx, p), `refs/heads/${branch}`)) !== null

/** The project to merge into: the path's project, or with `target_project_id` the project it was forked from. */
function targetOf(ctx: RequestContext, source: ProjectView, id: number | undefined): ProjectView {
  if (id === undefined || id === source.id) return source
  const target = findProjectById(ctx.app.db, id)
  // projects.ts's projectNotFound, spelled here: projects reach this module through forks, and an import back is a cycle.
  if (!target || !canReadProject(ctx, target)) throw notFound('Project')
  if (source.forked_from_id !== target.id) throw modelError(422, 'Source project is not a fork of the target project')
  return target
}

export async function createMergeRequest(ctx: RequestContext, source: ProjectView, input: CreateMergeRequestInput): Promise<store.MergeRequestRow> {
  if (effectiveProjectLevel(ctx, source) < DEVELOPER) throw forbidden()
  if (source.archived) throw forbidden('Project is archived')
  const target = targetOf(ctx, source, input.target_project_id)
  if (!target.merge_requests_enabled) throw modelError(422, 'Target project has disabled merge requests')
  const title = checkTitle(input.title)
  if (target.id === source.id && input.source_branch === input.target_branch) throw sameBranch()
  if (!(await branchExists(ctx, source, input.source_branch))) throw missingBranch('source_branch')
  if (!(await branchExists(ctx, target, input.target_branch))) throw missingBranch('target_branch')
  const db = ctx.app.db
  const twin = store.findOpenTwin(db, { source_project_id: source.id, source_branch: input.source_branch, project_id: target.id, target_branch: input.target_branch })
  if (twin) throw twinExists(twin)
  // Labels, assignees and milestone are the target project's, set by its Reporters and up.
  const metadata = effectiveProjectLevel(ctx, target) >= REPORTER
  const assigneeIds = metadata ? discussion.assignable(ctx, target, input.assignee_ids ?? (input.assignee_id ? [input.assignee_id] : [])) : []
  const reviewerIds = metadata ? discussion.assignable(ctx, target, input.reviewer_ids ?? []) : []
  const milestoneId = metadata && input.milestone_id !== undefined ? discussion.milestoneFor(ctx, target, input.milestone_id) ?? null : null
  const now = nowIso(ctx)
  const mr = transaction(db, () => {
    const row = store.insertMergeRequest(db, {
      project_id: target.id, iid: allocateIid(db, target.id, 'merge_requests'), source_project_id: source.id,
      source_branch: input.source_branch, target_branch: input.target_branch, title, description: input.description ?? null,
      author_id: ctx.user!.id, milestone_id: milestoneId, force_remove_source_branch: input.remove_source_branch ? 1 : 0,
      squash: input.squash ? 1 : 0, allow_collaboration: (input.allow_collaboration ?? input.allow_maintainer_to_push) ? 1 : 0,
      created_at: now, updated_at: now,
    })
    if (metadata && input.labels?.length) setLabels(db, row.id, resolveLabels(ctx, target, input.labels, true).map((l) => l.id))
    if (assigneeIds.length) setAssignees(db, row.id, assigneeIds)
    if (reviewerIds.length) store.setReviewers(db, row.id, reviewerIds)
    discussion.assignedTodos(ctx, row, assigneeIds, now)
    recordResourceEvents(ctx, blankSnapshot(row.id), now)
    return row
  })
  emitMergeRequestOpened(ctx.app, { mergeRequestId: mr.id, user: ctx.user })
  const opened = (await refreshMergeRequest(ctx.app, mr)).row
  emitHookEvent(ctx.app, { kind: 'merge_request', action: 'open', projectId: target.id, userId: ctx.user!.id, mergeRequestId: mr.id })
  return opened
}

/** Authors and Developers edit; metadata (labels, assignees, milestone, lock) needs Reporter, as for issues. */
function requireMayEdit(ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow) {
  if (mr.author_id !== ctx.user!.id && effectiveProjectLevel(ctx, p) < DEVELOPER) throw forbidden()
  if (p.archived) throw forbidden('Project is archived')
}

interface Edit { patch: store.MergeRequestPatch; notes: string[]; refresh: boolean }

/**
 * What closing an open merge request writes, as MergeRequests::CloseService does: the state and closer, and an
 * auto-merge it had aborted, with its note.
 */
export function closingEdit(ctx: RequestContext, mr: store.MergeRequestRow, now: string): { patch: store.MergeRequestPatch; notes: string[] } {
  const patch: store.MergeRequestPatch = { state: 'closed', closed_at: now, closed_by_id: ctx.user!.id }
  if (!mr.merge_when_pipeline_succeeds) return { patch, notes: ['closed'] }
  return { patch: { ...patch, merge_when_pipeline_succeeds: 0, merge_user_id: null }, notes: ['closed', 'aborted the automatic merge because merge request was closed'] }
}

async function stateAndBranch(ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow, input: UpdateMergeRequestInput, e: Edit) {
  const now = nowIso(ctx)
  if (input.target_branch !== undefined && input.target_branch !== mr.target_branch && mr.state !== 'merged') {
    if (mr.source_project_id === mr.project_id && input.target_branch === mr.source_branch) throw sameBranch()
    if (!(await branchExists(ctx, p, input.target_branch))) throw missingBranch('target_branch')
    e.patch.target_branch = input.target_branch
    e.notes.push(`changed target branch from \`${mr.target_branch}\` to \`${input.target_branch}\``)
    e.refresh = true
  }
  if (input.state_event === 'close' && mr.state === 'opened') {
    const closing = closingEdit(ctx, mr, now)
    Object.assign(e.patch, closing.patch)
    e.notes.push(...closing.notes)
  } else if (input.state_event === 'reopen' && mr.state === 'closed' && mr.source_project_id !== null) {
    // Without its source project (a deleted fork) GitLab's reopen fails validation and the merge request stays closed.
    Object.assign(e.patch, { state: 'opened', closed_at: null, closed_by_id: null })
    e.notes.push('reopened')
    e.refresh = true
  }
  const next = { ...mr, ...e.patch }
  if (next.state === 'opened' && (e.patch.target_branch !== undefined || e.patch.state !== undefined)) {
    const twin = store.findOpenTwin(ctx.app.db, next, mr.id)
    if (twin) throw twinExists(twin)
  }
}

function metadataEdits(ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow, input: UpdateMergeRequestInput, e: Edit) {
  if (input.discussion_locked !== undefined && (input.discussion_locked ? 1 : 0) !== (mr.discussion_locked ?? 0)) {
    e.patch.discussion_locked = input.discussion_locked ? 1 : 0
    e.notes.push(input.discussion_locked ? 'locked this merge request' : 'unlocked this merge request')
  }
  if (input.milestone_id !== undefined) {
    const next = discussion.milestoneFor(ctx, p, input.milestone_id)
    if (next !== undefined && next !== mr.milestone_id) {
      e.patch.milestone_id = next
      e.notes.push(next === null ? 'removed milestone' : `changed milestone to ${milestoneReference(ctx, next)}`)
    }
  }
}

export async function updateMergeRequest(ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow, input: UpdateMergeRequestInput) {
  requireMayEdit(ctx, p, mr)
  const db = ctx.app.db
  const e: Edit = { patch: {}, notes: [], refresh: false }
  if (input.title !== undefined && input.title !== mr.title) {
    e.patch.title = checkTitle(input.title)
    e.notes.push(`changed title from **${mr.title}** to **${e.patch.title}**`)
    e.refresh = true
  }
  if (input.description !== undefined && input.description !== mr.description) {
    e.patch.description = input.description
    e.notes.push('changed the description')
    e.refresh = true
  }
  await stateAndBranch(ctx, p, mr, input, e)
  const admin = effectiveProjectLevel(ctx, p) >= REPORTER
  if (admin) metadataEdits(ctx, p, mr, input, e)
  const remove = input.remove_source_branch
  if (remove !== undefined) e.patch.force_remove_source_branch = remove ? 1 : 0
  if (input.squash !== undefined) e.patch.squash = input.squash ? 1 : 0
  const collaboration = input.allow_collaboration ?? input.allow_maintainer_to_push
  if (collaboration !== undefined) e.patch.allow_collaboration = collaboration ? 1 : 0
  const now = nowIso(ctx)
  const row = transaction(db, () => {
    const before = snapshotIssuable(ctx, mr.id)
    if (admin) {
      const current = labelIdsOf(db, mr.id)
      const next = discussion.nextLabels(ctx, p, current, input)
      if (next !== undefined && !discussion.sameSet(next, current)) {
        e.notes.push(discussion.labelNote(next.filter((id) => !current.includes(id)), current.filter((id) => !next.includes(id))))
        setLabels(db, mr.id, next)
      }
      assigneeEdits(ctx, p, mr, input, e, now)
      if (input.reviewer_ids !== undefined) store.setReviewers(db, mr.id, discussion.assignable(ctx, p, input.reviewer_ids))
    }
    if (e.notes.length || Object.keys(e.patch).length) e.patch.updated_at = now
    store.updateMergeRequest(db, mr.id, e.patch)
    for (const body of e.notes) discussion.addSystemNote(ctx, mr.id, body, now)
    recordResourceEvents(ctx, before, now)
    return store.findMergeRequestById(db, mr.id)!
  })
  const updated = e.refresh ? (await refreshMergeRequest(ctx.app, row)).row : row
  if (e.notes.length) {
    const action = mr.state !== updated.state ? (updated.state === 'closed' ? 'close' : 'reopen') : 'update'
    emitHookEvent(ctx.app, { kind: 'merge_request', action, projectId: p.id, userId: ctx.user!.id, mergeRequestId: mr.id })
  }
  return updated
}

function assigneeEdits(ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow, input: UpdateMergeRequestInput, e: Edit, now: string) {
  const wanted = input.assignee_ids ?? (input.assignee_id !== undefined ? [input.assignee_id] : undefined)
  if (wanted === undefined) return
  const db = ctx.app.db
  const current = assigneeIdsOf(db, [mr.id]).get(mr.id) ?? []
  const next = discussion.assignable(ctx, p, wanted)
  if (discussion.sameSet(next, current)) return
  const added = next.filter((id) => !current.includes(id))
  const removed = current.filter((id) => !next.includes(id))
  e.notes.push(discussion.assigneeNote(usersByIds(db, [...added, ...removed]), added, removed))
  setAssignees(db, mr.id, next)
  discussion.assignedTodos(ctx, mr, added, now)
}

export function deleteMergeRequest(ctx: RequestContext, p: ProjectView, mr: store.MergeRequestRow) {
  if (effectiveProjectLevel(ctx, p) < OWNER) throw forbidden()
  transaction(ctx.app.db, () => deleteNoteable(ctx.app.db, mr.id))
}
