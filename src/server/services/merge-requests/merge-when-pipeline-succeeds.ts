// Merge when pipeline succeeds (compat-mr-ci-wiki §1.5): a merge asked for while the head pipeline runs is kept as
// the merge request's auto-merge, done as the merge user when that pipeline succeeds (auto-merge-watch.ts), and
// aborted with a system note when it fails or is canceled.
import type { RequestContext } from '../../context.js'
import { isFinishedStatus } from '../../ci/status.js'
import * as store from '../../store/merge-requests.js'
import { headPipeline } from '../../store/pipelines.js'
import { addSystemNote } from '../issuables/discussion.js'
// Only its type: merging consults these rules, so a value import back would make a cycle.
import type { MergeInput } from './merge-request-merge.js'

/**
 * When the head pipeline has not finished, records the auto-merge instead of merging and answers true; the merge
 * request is then merged by watchAutoMerges (auto-merge-watch.ts).
 */
export function deferToPipeline(ctx: RequestContext, mr: store.MergeRequestRow, input: MergeInput): boolean {
  if (!(input.merge_when_pipeline_succeeds || input.auto_merge)) return false
  const head = headPipeline(ctx.app.db, mr)
  if (!head || isFinishedStatus(head.status)) return false
  const now = ctx.app.clock.now().toISOString()
  store.updateMergeRequest(ctx.app.db, mr.id, {
    merge_when_pipeline_succeeds: 1, merge_user_id: ctx.user!.id, updated_at: now, merge_params: JSON.stringify(deferredParams(input)),
    ...(input.should_remove_source_branch !== undefined ? { should_remove_source_branch: input.should_remove_source_branch ? 1 : 0 } : {}),
  })
  addSystemNote(ctx, mr.id, `enabled an automatic merge when the pipeline for ${head.sha} succeeds`, now)
  return true
}

/** What the later merge must repeat of the request that deferred it. */
type DeferredParams = Pick<MergeInput, 'merge_commit_message' | 'squash_commit_message' | 'squash'>

const deferredParams = (input: MergeInput): DeferredParams =>
  ({ merge_commit_message: input.merge_commit_message, squash_commit_message: input.squash_commit_message, squash: input.squash })

export function storedParams(mr: store.MergeRequestRow): DeferredParams {
  if (!mr.merge_params) return {}
  const p = JSON.parse(mr.merge_params) as DeferredParams
  return { merge_commit_message: p.merge_commit_message, squash_commit_message: p.squash_commit_message, squash: p.squash }
}

/**
 * With only_allow_merge_if_pipeline_succeeds, a merge (not an auto-merge) needs a successful head pipeline
 * (MergeRequest#mergeable_ci_state?); GitLab answers 405 otherwise.
 */
export function ciBlocksMerge(ctx: RequestContext, project: { only_allow_merge_if_pipeline_succeeds: number }, mr: store.MergeRequestRow): boolean {
  if (!project.only_allow_merge_if_pipeline_succeeds) return false
  return headPipeline(ctx.app.db, mr)?.status !== 'success'
}

