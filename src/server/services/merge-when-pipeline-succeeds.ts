// Merge when pipeline succeeds (compat-mr-ci-wiki §1.5): a merge asked for while the head pipeline runs is kept as
// the merge request's auto-merge, done as the merge user when that pipeline succeeds, and aborted with a system note
// when it fails or is canceled.
import type { AppDeps, RequestContext } from '../context.js'
import { onPipelineFinished } from '../ci/lifecycle-events.js'
import { isFinishedStatus } from '../ci/status.js'
import * as store from '../store/merge-requests.js'
import { headPipeline, type PipelineRow } from '../store/pipelines.js'
import { findProjectById } from '../store/projects.js'
import { findUserById, type UserRow } from '../store/users.js'
import { addSystemNote } from './discussion.js'
import { onRefsMoved, type PushEvent } from './git-access.js'
import { mergeMergeRequest, type MergeInput } from './merge-request-merge.js'

/**
 * When the head pipeline has not finished, records the auto-merge instead of merging and answers true; the merge
 * request is then merged by watchAutoMerges.
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

function storedParams(mr: store.MergeRequestRow): DeferredParams {
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

/** A context acting as the merge user, for work no request carries. */
function actingAs(app: AppDeps, user: UserRow): RequestContext {
  return {
    app, user, token: null, scopes: null, sudoer: null, baseUrl: '', apiUrl: '/api/v4',
    page: { page: 1, perPage: 20, limit: 20, offset: 0 },
  }
}

/**
 * The open merge requests a finished pipeline may be the head pipeline of: a merge request pipeline's own (its ref,
 * refs/merge-requests/<iid>/head, names no branch), else those of its branch.
 */
function candidates(app: AppDeps, pipeline: PipelineRow): store.MergeRequestRow[] {
  if (pipeline.merge_request_id === null) return store.openOnBranches(app.db, pipeline.project_id, [pipeline.ref])
  const mr = store.findMergeRequestById(app.db, pipeline.merge_request_id)
  return mr && mr.state === 'opened' ? [mr] : []
}

async function onFinished(app: AppDeps, pipeline: PipelineRow) {
  for (const mr of candidates(app, pipeline)) {
    if (!mr.merge_when_pipeline_succeeds || headPipeline(app.db, mr)?.id !== pipeline.id) continue
    const user = mr.merge_user_id === null ? undefined : findUserById(app.db, mr.merge_user_id)
    const target = findProjectById(app.db, mr.project_id)
    if (!user || !target) continue
    const ctx = actingAs(app, user)
    if (pipeline.status !== 'success') {
      abort(ctx, mr, 'the pipeline did not succeed')
      continue
    }
    try {
      await mergeMergeRequest(ctx, target, mr, {
        ...storedParams(mr), should_remove_source_branch: mr.should_remove_source_branch === null ? undefined : mr.should_remove_source_branch === 1,
      })
    } catch (err) {
      app.log.error(`merging !${mr.iid} when its pipeline succeeded failed`, err)
      abort(ctx, mr, 'the merge failed')
    }
  }
}

function abort(ctx: RequestContext, mr: store.MergeRequestRow, reason: string) {
  const now = ctx.app.clock.now().toISOString()
  store.updateMergeRequest(ctx.app.db, mr.id, { merge_when_pipeline_succeeds: 0, merge_user_id: null, updated_at: now })
  addSystemNote(ctx, mr.id, `aborted the automatic merge because ${reason}`, now)
}

/** GitLab 17 (gitlab-org/gitlab#346782): new commits on the source branch abort the auto-merge. */
function onPush(app: AppDeps, event: PushEvent) {
  const branches = event.changes.flatMap((c) => (c.ref.startsWith('refs/heads/') ? [c.ref.slice('refs/heads/'.length)] : []))
  for (const mr of store.openOnBranches(app.db, event.project.id, branches)) {
    if (!mr.merge_when_pipeline_succeeds || mr.source_project_id !== event.project.id || !branches.includes(mr.source_branch)) continue
    abort(actingAs(app, event.user), mr, 'source branch was updated')
  }
}

/** Subscribes auto-merges to the pipelines and pushes of this server; returns the unsubscribe. */
export function watchAutoMerges(app: AppDeps): () => void {
  const offPipelines = onPipelineFinished(app, onFinished)
  const offPushes = onRefsMoved(app, onPush)
  return () => {
    offPipelines()
    offPushes()
  }
}
