// Auto-cancel of redundant pipelines (GitLab's auto_cancel_pending_pipelines, on by default): a new push pipeline
// cancels the older unfinished pipelines of its branch at other commits, as long as every job of theirs that has started is
// interruptible (Ci::PipelineCreation::CancelRedundantPipelinesService).
import type { AppDeps } from '../context.js'
import { latestPipelineJobs } from '../store/ci-jobs.js'
import { unfinishedPipelinesBefore, type PipelineRow } from '../store/pipelines.js'
import { cancelPipeline } from './lifecycle-actions.js'
import { specOf } from './scheduler.js'

const NOT_STARTED = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'manual', 'scheduled', 'skipped'])

/** Whether nothing but interruptible jobs has run yet, and at least one job says it may be interrupted. */
function interruptible(app: AppDeps, pipelineId: number): boolean {
  const latest = latestPipelineJobs(app.db, pipelineId)
  const marked = latest.filter((j) => specOf(j).interruptible)
  if (!marked.length) return false
  return latest.every((j) => NOT_STARTED.has(j.status) || specOf(j).interruptible)
}

export function cancelRedundantPipelines(app: AppDeps, fresh: PipelineRow): number[] {
  if (fresh.tag) return []
  const canceled: number[] = []
  for (const old of unfinishedPipelinesBefore(app.db, fresh.project_id, fresh.ref, fresh.id)) {
    // Pipelines of the same commit are not redundant: they may run with other variables.
    if (old.sha === fresh.sha || old.merge_request_id !== fresh.merge_request_id || !interruptible(app, old.id)) continue
    cancelPipeline(app, old.id)
    canceled.push(old.id)
  }
  return canceled
}
