// Pipelines for statuses posted by external CI (POST /projects/:id/statuses/:sha): a status joins the pipeline it
// names or the newest pipeline of its sha and ref, else a new `external` pipeline (Ci::CreateCommitStatusService).
import type { AppDeps } from '../context.js'
import { transaction } from '../store/db.js'
import { allocateIid } from '../store/issues.js'
import { findProjectPipeline, insertPipeline, latestPipeline, type PipelineRow } from '../store/pipelines.js'
import type { ProjectView } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { refreshPipeline } from './scheduler.js'

export function pipelineForStatus(app: AppDeps, f: { project: ProjectView; sha: string; ref: string; user: UserRow | null; pipelineId?: number }): PipelineRow {
  const named = f.pipelineId === undefined ? undefined : findProjectPipeline(app.db, f.project.id, f.pipelineId)
  if (named && named.sha === f.sha) return named
  const newest = latestPipeline(app.db, f.project.id, { sha: f.sha, ref: f.ref })
  if (newest) return newest
  const now = app.clock.now().toISOString()
  return transaction(app.db, () => insertPipeline(app.db, {
    project_id: f.project.id, iid: allocateIid(app.db, f.project.id, 'pipelines'), sha: f.sha, before_sha: null, ref: f.ref, tag: 0,
    source: 'external', status: 'pending', yaml_errors: null, stages: '["external"]', user_id: f.user?.id ?? null, merge_request_id: null,
    created_at: now, updated_at: now, committed_at: null,
  }))
}

/** After a status changed: the pipeline's status, timings and listeners follow. */
export const statusChanged = (app: AppDeps, pipelineId: number) => refreshPipeline(app, pipelineId)
