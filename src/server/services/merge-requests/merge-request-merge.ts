// Merging a merge request (compat-mr-ci-wiki.md §1.4): checks in GitLab's order, the merge engine, closing the issues
// it names, source-branch removal; cancelling merge-when-pipeline-succeeds; rebasing the source branch.
import { CollabError, unauthorized } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { mergeBranches, mergeRequestHeadRef, rebaseBranch, rebaseOntoRepository, type MergeOutcome } from '../../git/merge/index.js'
import { GitError } from '../../git/types.js'
import type { RefChange } from '../../git/transport.js'
import { transaction } from '../../store/db.js'
import { findIssueById, updateIssue, usersByIds } from '../../store/issues.js'
import * as store from '../../store/merge-requests.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { addSystemNote } from '../issuables/discussion.js'
import { emitRefsMoved } from '../repository/git-access.js'
import { mergeCommitMessageOf, refreshMergeRequest } from './merge-request-status.js'
import { isDraft } from './merge-requests.js'
import { ciBlocksMerge, deferToPipeline } from './merge-when-pipeline-succeeds.js'
import { blockedByDiscussions } from '../issuables/discussions.js'
import { canPushTo, isProtectedBranch, requireMergeInto, requirePushTo } from '../repository/protected-branches.js'
import { recordResourceEvents, snapshotIssuable } from '../issuables/resource-events.js'
import { emitHookEvent } from '../hooks/webhook-events.js'
import { gitdirOf, signatureOf } from '../repository/repository.js'

export interface MergeInput {
  merge_commit_message?: string
  squash_commit_message?: string
  squash?: boolean
  should_remove_source_branch?: boolean
  merge_when_pipeline_succeeds?: boolean
  auto_merge?: boolean
  sha?: string
}

const notAllowed = () => new CollabError('METHOD_NOT_ALLOWED', '405 Method Not Allowed', { status: 405 })
// api-v4.md's codes: a merge request that cannot be merged answers 405 with these words, a merged or closed one 406.
const cannotMerge = () => new CollabError('CANNOT_BE_MERGED', 'Branch cannot be merged', { status: 405 })
const notOpen = () => new CollabError('NOT_OPEN', 'Method Not Allowed', { status: 406 })
const shaMismatch = (head: string) => new CollabError('SHA_MISMATCH', `SHA does not match HEAD of source branch: ${head}`, { status: 409 })

/** The engine's refusals as GitLab's answers. */
function mergeErrorToApi(err: unknown, head: string): never {
  if (!(err instanceof GitError)) throw err
  if (err.kind === 'sha_mismatch') throw shaMismatch(head)
  if (err.kind === 'conflict' || err.kind === 'need_rebase') throw cannotMerge()
  if (err.kind === 'stale') throw new CollabError('STALE', err.message, { status: 409 })
  throw notAllowed()
}

/** Whether the merger may and should delete the source branch (`MergeRequest#can_remove_source_branch?`). */
function removesSource(ctx: RequestContext, source: ProjectView, mr: store.MergeRequestRow, asked: boolean | undefined) {
  const wanted = asked ?? (mr.should_remove_source_branch === null ? mr.force_remove_source_branch === 1 : mr.should_remove_source_branch === 1)
  return wanted && mr.source_project_id === mr.project_id && source.default_branch !== mr.source_branch
    && !isProtectedBranch(ctx.app, source, mr.source_branch) && canPushTo(ctx, source, mr.source_branch)
}

const pathOf = (p: ProjectView) => `${p.ns_full_path}/${p.path}`

export async function mergeMergeRequest(ctx: RequestContext, target: ProjectView, mr: store.MergeRequestRow, input: MergeInput) {
  // GitLab 17's order: who may merge (401), then the sha (409), then whether it can be merged (405).
  requireMergeInto(ctx, target, mr.target_branch)
  const refreshed = await refreshMergeRequest(ctx.app, mr)
  const fresh = refreshed.row
  if (input.sha !== undefined && fresh.source_sha && input.sha !== fresh.source_sha) throw shaMismatch(fresh.source_sha)
  if (fresh.state !== 'opened') throw notOpen()
  if (isDraft(fresh.title) || fresh.git_merge_status === 'commits_status' || !fresh.source_sha) throw notAllowed()
  if (blockedByDiscussions(ctx, [fresh]).size) throw notAllowed()
  if (deferToPipeline(ctx, fresh, input)) return store.findMergeRequestById(ctx.app.db, mr.id)!
  if (ciBlocksMerge(ctx, target, fresh)) throw notAllowed()
  const db = ctx.app.db
  // GitLab's mergeable? is false once the source branch is missing, as it is with its fork deleted.
  const source = store.sourceProjectOf(db, mr)
  if (!source) throw notAllowed()
  const squash = input.squash ?? fresh.squash === 1
  const closing = store.closingIssueIds(db, mr.id)
  const author = usersByIds(db, [mr.author_id]).get(mr.author_id)!
  const removeSource = removesSource(ctx, source, fresh, input.should_remove_source_branch)
  let outcome: MergeOutcome
  try {
    outcome = await mergeBranches(gitdirOf(ctx, target), {
      sourceBranch: mr.source_branch, targetBranch: mr.target_branch, method: target.merge_method,
      sourceRef: mr.source_project_id === mr.project_id ? undefined : mergeRequestHeadRef(mr.iid),
      message: input.merge_commit_message ?? mergeCommitMessageOf(ctx.app, target, mr, closing),
      user: signatureOf(ctx), sha: fresh.source_sha,
      squash: squash ? { title: mr.title, message: input.squash_commit_message, author: signatureOf(ctx, author.name, author.email) } : undefined,
      removeSourceBranch: removeSource, checked: refreshed.check,
    })
  } catch (err) {
    return mergeErrorToApi(err, fresh.source_sha)
  }
  const row = recordMerge(ctx, mr, outcome, { squash, closing, removeAsked: input.should_remove_source_branch })
  const changes: RefChange[] = [{ ref: `refs/heads/${mr.target_branch}`, before: outcome.targetBefore, after: outcome.targetAfter }]
  if (outcome.sourceBranchRemoved) changes.push({ ref: `refs/heads/${mr.source_branch}`, before: outcome.sourceHead, after: null })
  emitRefsMoved(ctx.app, { project: target, user: ctx.user!, changes })
  emitHookEvent(ctx.app, { kind: 'merge_request', action: 'merge', projectId: target.id, userId: ctx.user!.id, mergeRequestId: mr.id })
  return row
}

/** The merge request becomes merged and every issue it names is closed by the merger, with system notes. */
function recordMerge(ctx: RequestContext, mr: store.MergeRequestRow, o: MergeOutcome, opts: { squash: boolean; closing: number[]; removeAsked?: boolean }) {
  const db = ctx.app.db
  const now = nowIso(ctx)
  const user = ctx.user!
  return transaction(db, () => {
    const before = snapshotIssuable(ctx, mr.id)
    store.updateMergeRequest(db, mr.id, {
      state: 'merged', merged_by_id: user.id, merged_at: now, merge_user_id: user.id, merge_commit_sha: o.mergeCommitSha,
      squash_commit_sha: o.squashCommitSha, squash: opts.squash ? 1 : 0, merge_when_pipeline_succeeds: 0, merge_error: null,
      source_sha: o.sourceHead, updated_at: now,
      ...(opts.removeAsked !== undefined ? { should_remove_source_branch: opts.removeAsked ? 1 : 0 } : {}),
    })
    addSystemNote(ctx, mr.id, 'merged', now)
    recordResourceEvents(ctx, before, now)
    for (const id of opts.closing) {
      const issue = findIssueById(db, id)
      if (!issue || issue.state !== 'opened') continue
      const issueBefore = snapshotIssuable(ctx, id)
      updateIssue(db, id, { state: 'closed', closed_at: now, closed_by_id: user.id, updated_at: now })
      addSystemNote(ctx, id, issue.project_id === mr.project_id ? `closed via merge request !${mr.iid}` : `closed via merge request ${pathOf(findProjectById(db, mr.project_id)!)}!${mr.iid}`, now)
      recordResourceEvents(ctx, issueBefore, now, { mergeRequestId: mr.id })
    }
    return store.findMergeRequestById(db, mr.id)!
  })
}

/** Only the author or someone who may merge cancels; 401 otherwise. */
function requireMayCancel(ctx: RequestContext, target: ProjectView, mr: store.MergeRequestRow) {
  if (mr.author_id === ctx.user!.id) return
  try {
    requireMergeInto(ctx, target, mr.target_branch)
  } catch {
    throw unauthorized()
  }
}

/**
 * Clears merge-when-pipeline-succeeds. api-v4.md's codes: 405 when the merge request is merged or closed, 406 (with
 * AutoMergeService's words) when it was not set to merge.
 */
export function cancelAutoMerge(ctx: RequestContext, target: ProjectView, mr: store.MergeRequestRow) {
  requireMayCancel(ctx, target, mr)
  if (mr.state !== 'opened') throw notAllowed()
  if (!mr.merge_when_pipeline_succeeds) {
    throw new CollabError('CANNOT_CANCEL', "Can't cancel the automatic merge", { status: 406, body: { status: 'error', message: "Can't cancel the automatic merge" } })
  }
  store.updateMergeRequest(ctx.app.db, mr.id, { merge_when_pipeline_succeeds: 0, merge_user_id: null, updated_at: nowIso(ctx) })
  return store.findMergeRequestById(ctx.app.db, mr.id)!
}

/**
 * Rebases the source branch onto the target (a fork's in the fork); runs to the end before answering. A failure is
 * kept as `merge_error`, as GitLab reports a failed background rebase.
 */
export async function rebaseMergeRequest(ctx: RequestContext, target: ProjectView, mr: store.MergeRequestRow) {
  const source = store.sourceProjectOf(ctx.app.db, mr)
  // GitLab's authorize_push_to_merge_request!: source_branch_exists? is false without a source project.
  if (!source) throw new CollabError('FORBIDDEN', '403 Forbidden - Source branch does not exist', { status: 403 })
  try {
    requirePushTo(ctx, source, mr.source_branch, { force: true })
  } catch {
    throw new CollabError('FORBIDDEN', '403 Forbidden - Cannot push to source branch', { status: 403 })
  }
  if (mr.state !== 'opened') throw notAllowed()
  try {
    const request = { branch: mr.source_branch, onto: mr.target_branch, committer: signatureOf(ctx) }
    // A fork's branch is rebased in the fork, onto the target's head brought over from the target repository.
    const o = source.id === target.id
      ? await rebaseBranch(gitdirOf(ctx, target), request)
      : await rebaseOntoRepository(gitdirOf(ctx, source), gitdirOf(ctx, target), request)
    store.updateMergeRequest(ctx.app.db, mr.id, { merge_error: null })
    if (!o.upToDate) emitRefsMoved(ctx.app, { project: source, user: ctx.user!, changes: [{ ref: `refs/heads/${mr.source_branch}`, before: o.before, after: o.after }] })
  } catch (err) {
    if (!(err instanceof GitError)) throw err
    if (err.kind === 'not_found') throw new CollabError('FORBIDDEN', '403 Forbidden - Source branch does not exist', { status: 403 })
    store.updateMergeRequest(ctx.app.db, mr.id, { merge_error: 'Rebase failed. Please rebase locally' })
  }
}
