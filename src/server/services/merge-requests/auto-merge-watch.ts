// The auto-merges of merge when pipeline succeeds, carried out: merged as the merge user when their head pipeline
// succeeds, aborted when it does not or their source branch moves. Apart from the rules (merge-when-pipeline-succeeds.ts)
// because it merges, and merging consults those rules.
import { onPipelineFinished, onRefsMoved, type PushEvent } from '../../app-events.js'
import type { AppDeps, RequestContext } from '../../context.js'
import * as store from '../../store/merge-requests.js'
import { headPipeline, type PipelineRow } from '../../store/pipelines.js'
import { findProjectById } from '../../store/projects.js'
import { findUserById, type UserRow } from '../../store/users.js'
import { addSystemNote } from '../issuables/discussion.js'
import { mergeMergeRequest } from './merge-request-merge.js'
import { storedParams } from './merge-when-pipeline-succeeds.js'

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
