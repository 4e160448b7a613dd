// Job and pipeline actions (compat-mr-ci-wiki §4.1, §4.7): retry, cancel, play, delete. Callers check permissions.
import { CANCELABLE_STATUSES, FINISHED_STATUSES } from '../../core/job-status.js'
import { badRequest, forbidden, notFound } from '../../core/errors.js'
import type { AppDeps } from '../context.js'
import { transaction } from '../store/db.js'
import * as jobs from '../store/ci-jobs.js'
import type { JobRow } from '../store/ci-jobs.js'
import { deletePipelineRow, findPipelineById, type PipelineRow } from '../store/pipelines.js'
import type { UserRow } from '../store/users.js'
import { eraseArtifacts } from './artifacts.js'
import { linkJobEnvironment, settleEnvironment } from './environments.js'
import { emitJobCanceled, emitJobFinished, emitJobQueued } from './lifecycle-events.js'
import { processPipeline, refreshPipeline, specOf } from './scheduler.js'
import { eraseTrace } from './traces.js'

/** A manual job is waiting for a person, not running: canceling its pipeline leaves it playable, as in GitLab. */
const CANCELABLE = [...CANCELABLE_STATUSES]

/**
 * A new try of a finished job: a copy in `created` (or `status`), the old row kept as retried, and the skipped jobs
 * after it back to `created` (Ci::RetryJobService, ResetSkippedJobsService).
 */
export function cloneJob(app: AppDeps, job: JobRow, user: UserRow | null, opts: { status?: string; retryCount?: number } = {}): JobRow {
  const now = app.clock.now().toISOString()
  jobs.updateJob(app.db, job.id, { retried: 1, updated_at: now })
  const status = opts.status ?? 'created'
  const clone = jobs.insertJob(app.db, {
    project_id: job.project_id, pipeline_id: job.pipeline_id, name: job.name, stage: job.stage, stage_idx: job.stage_idx,
    status, when_: job.when_, allow_failure: specOf(job).allowFailure ? 1 : 0, spec: job.spec, ref: job.ref, tag: job.tag, sha: job.sha,
    user_id: user?.id ?? job.user_id, created_at: now, updated_at: now, retry_count: opts.retryCount ?? 0,
    ...(status === 'pending' ? { queued_at: now } : {}),
  })
  // A new try deploys anew, as GitLab's retry clones the job with its deployment.
  linkJobEnvironment(app, clone, specOf(clone))
  return clone
}

/** Skipped jobs that ran after `stageIdx` (or that need one of `names`) wait again. */
function resetSkippedAfter(app: AppDeps, pipelineId: number, stageIdx: number, names: Set<string>) {
  const now = app.clock.now().toISOString()
  for (const j of jobs.latestPipelineJobs(app.db, pipelineId)) {
    if (j.status !== 'skipped') continue
    const needs = specOf(j).needs
    const after = needs === null ? j.stage_idx > stageIdx : needs.some((n) => names.has(n.job))
    if (after) jobs.transitionJob(app.db, j.id, ['skipped'], { status: 'created', updated_at: now })
  }
}

function reprocess(app: AppDeps, pipelineId: number, queued: boolean) {
  processPipeline(app, pipelineId)
  if (queued) emitJobQueued(app)
}

export function retryJob(app: AppDeps, jobId: number, user: UserRow | null): JobRow {
  const job = jobs.findJobById(app.db, jobId)
  if (!job || job.retried || !FINISHED_STATUSES.has(job.status)) throw forbidden('Job is not retryable')
  const fresh = transaction(app.db, () => {
    const clone = cloneJob(app, job, user)
    resetSkippedAfter(app, job.pipeline_id, job.stage_idx, new Set([job.name]))
    return clone
  })
  reprocess(app, job.pipeline_id, false)
  return jobs.findJobById(app.db, fresh.id)!
}

/** Play of a manual or delayed job enqueues it; a finished manual job played again is retried straight into the queue. */
export function playJob(app: AppDeps, jobId: number, user: UserRow | null): JobRow {
  const job = jobs.findJobById(app.db, jobId)
  const playable = job && !job.retried && (job.when_ === 'manual' || job.when_ === 'delayed')
  if (!playable) throw badRequest('Unplayable Job')
  const now = app.clock.now().toISOString()
  let id = job.id
  if (job.status === 'manual' || job.status === 'scheduled') {
    jobs.transitionJob(app.db, job.id, ['manual', 'scheduled'], { status: 'pending', queued_at: now, updated_at: now, user_id: user?.id ?? job.user_id })
  } else if (FINISHED_STATUSES.has(job.status)) {
    id = transaction(app.db, () => {
      const clone = cloneJob(app, job, user, { status: 'pending' })
      resetSkippedAfter(app, job.pipeline_id, job.stage_idx, new Set([job.name]))
      return clone.id
    })
  } else {
    throw badRequest('Unplayable Job')
  }
  reprocess(app, job.pipeline_id, true)
  return jobs.findJobById(app.db, id)!
}

/** Cancels a job that may still run; any other job comes back unchanged (GitLab answers 201 either way). */
export function cancelJob(app: AppDeps, jobId: number): JobRow {
  const job = jobs.findJobById(app.db, jobId)
  if (!job) throw notFound('Job')
  if (!cancelOne(app, job)) return job
  processPipeline(app, job.pipeline_id)
  return jobs.findJobById(app.db, jobId)!
}

function cancelOne(app: AppDeps, job: JobRow): boolean {
  const now = app.clock.now().toISOString()
  if (!jobs.transitionJob(app.db, job.id, CANCELABLE, { status: 'canceled', finished_at: now, updated_at: now })) return false
  if (job.status === 'running') emitJobCanceled(app, job.id)
  settleEnvironment(app, { ...job, status: 'canceled', finished_at: now })
  emitJobFinished(app, { ...job, status: 'canceled', finished_at: now })
  return true
}

export function cancelPipeline(app: AppDeps, pipelineId: number): PipelineRow | undefined {
  for (const job of jobs.latestPipelineJobs(app.db, pipelineId)) cancelOne(app, job)
  return refreshPipeline(app, pipelineId) ?? findPipelineById(app.db, pipelineId)
}

/** Every latest failed or canceled job gets a new try; skipped ones after them wait again (Ci::RetryPipelineService). */
export function retryPipeline(app: AppDeps, pipelineId: number, user: UserRow | null): PipelineRow | undefined {
  transaction(app.db, () => {
    const latest = jobs.latestPipelineJobs(app.db, pipelineId)
    const retried = latest.filter((j) => j.status === 'failed' || j.status === 'canceled')
    for (const j of retried) cloneJob(app, j, user)
    const first = Math.min(...retried.map((j) => j.stage_idx), Infinity)
    resetSkippedAfter(app, pipelineId, first, new Set(retried.map((j) => j.name)))
  })
  return processPipeline(app, pipelineId)
}

/** Removes the pipeline, its jobs, their traces and artifacts; running jobs are told to stop first. */
export async function deletePipeline(app: AppDeps, pipelineId: number): Promise<void> {
  const all = jobs.pipelineJobs(app.db, pipelineId)
  for (const job of all) if (job.status === 'running') emitJobCanceled(app, job.id)
  transaction(app.db, () => deletePipelineRow(app.db, pipelineId))
  await eraseJobFiles(app, all.map((j) => j.id))
}

/**
 * Erases the traces and artifacts of jobs whose rows are gone. Job ids can be handed out again, and a new job's trace
 * is appended to the file of its id: a deleted job's log must not become the start of another project's.
 */
export async function eraseJobFiles(app: AppDeps, jobIds: readonly number[]) {
  for (const id of jobIds) {
    await eraseTrace(app.layout, id).catch((err) => app.log.error('erasing a trace failed', err))
    await eraseArtifacts(app.layout, id).catch((err) => app.log.error('erasing artifacts failed', err))
  }
}
