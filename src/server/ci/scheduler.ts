// Which created jobs of a pipeline may move now (GitLab's atomic processing): a job waits until the jobs before it
// (earlier stages, or its `needs`) are complete, then runs, waits for a play (manual), is scheduled (delayed) or is
// skipped, by its `when`. Then the pipeline's composite status, timings and coverage are brought up to date.
import { COMPLETED_STATUSES } from '../../core/job-status.js'
import type { AppDeps } from '../context.js'
import { transaction } from '../store/db.js'
import * as jobs from '../store/ci-jobs.js'
import type { JobRow } from '../store/ci-jobs.js'
import { findPipelineById, pipelineCommitStatuses, updatePipeline, type PipelineRow } from '../store/pipelines.js'
import type { JobSpec } from './plan-types.js'
import { compositeStatus, isFinishedStatus } from './status.js'
import { emitJobQueued, emitPipelineFinished } from './lifecycle-events.js'

export const specOf = (job: Pick<JobRow, 'spec'>) => JSON.parse(job.spec) as JobSpec

const statusInput = (j: JobRow) => ({ status: j.status, allowFailure: j.allow_failure === 1 })

/** The status a waiting job is judged by: its needs' (DAG) or every earlier stage's; nothing before counts as success. */
function priorStatus(job: JobRow, spec: JobSpec, latest: JobRow[]): string {
  if (spec.needs !== null) {
    const names = new Set(spec.needs.map((n) => n.job))
    const needed = latest.filter((j) => names.has(j.name))
    return needed.length ? compositeStatus(needed.map(statusInput)) : 'success'
  }
  const before = latest.filter((j) => j.stage_idx < job.stage_idx)
  return before.length ? compositeStatus(before.map(statusInput)) : 'success'
}

/** Ci::ProcessBuildService#valid_statuses_for_processable: DAG jobs do not run after skipped needs. */
function runsAfter(when: string, dag: boolean, prior: string) {
  if (when === 'on_success' || when === 'manual' || when === 'delayed') return prior === 'success' || (!dag && prior === 'skipped')
  if (when === 'on_failure') return prior === 'failed'
  if (when === 'always') return prior === 'success' || prior === 'failed' || prior === 'skipped'
  return false
}

/** The next status of a created job, or null while what it waits for is not complete. */
function decide(app: AppDeps, job: JobRow, latest: JobRow[]): jobs.JobPatch | null {
  const spec = specOf(job)
  const prior = priorStatus(job, spec, latest)
  if (!COMPLETED_STATUSES.has(prior)) return null
  const now = app.clock.now()
  if (!runsAfter(job.when_, spec.needs !== null, prior)) return { status: 'skipped', updated_at: now.toISOString() }
  if (job.when_ === 'manual') return { status: 'manual', updated_at: now.toISOString() }
  if (job.when_ === 'delayed') {
    const at = new Date(now.getTime() + (spec.startIn ?? 0) * 1000).toISOString()
    return { status: 'scheduled', scheduled_at: at, updated_at: now.toISOString() }
  }
  return { status: 'pending', queued_at: now.toISOString(), updated_at: now.toISOString() }
}

/** Moves every created job that may move, repeating until nothing does (a skip can release later jobs). */
export function processPipeline(app: AppDeps, pipelineId: number): PipelineRow | undefined {
  let queued = false
  const row = transaction(app.db, () => {
    const latest = jobs.latestPipelineJobs(app.db, pipelineId)
    for (let moved = true; moved;) {
      moved = false
      for (const job of latest) {
        if (job.status !== 'created') continue
        const patch = decide(app, job, latest)
        if (!patch || !jobs.transitionJob(app.db, job.id, ['created'], patch)) continue
        Object.assign(job, patch)
        moved = true
        if (patch.status === 'pending') queued = true
      }
    }
    return refreshPipeline(app, pipelineId, latest)
  })
  if (queued) emitJobQueued(app)
  return row
}

const seconds = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000))

/** `%.2f` of the average of the latest jobs' coverage (Ci::Pipeline#coverage), or null. */
export function pipelineCoverage(latest: JobRow[]): string | null {
  const values = latest.map((j) => j.coverage).filter((c): c is number => c !== null)
  return values.length ? (values.reduce((a, b) => a + b, 0) / values.length).toFixed(2) : null
}

/** The pipeline's status, timings and coverage from its latest jobs; tells listeners when it has just finished. */
export function refreshPipeline(app: AppDeps, pipelineId: number, latest = jobs.latestPipelineJobs(app.db, pipelineId)): PipelineRow | undefined {
  const p = findPipelineById(app.db, pipelineId)
  if (!p || p.yaml_errors !== null) return p
  // Statuses posted by external CI count like jobs (GenericCommitStatus is a job of the pipeline in GitLab).
  const external = pipelineCommitStatuses(app.db, pipelineId).map((s) => ({ status: s.status, allowFailure: s.allow_failure === 1 }))
  const status = compositeStatus([...latest.map(statusInput), ...external])
  const now = app.clock.now().toISOString()
  const patch: Partial<PipelineRow> = { status, coverage: pipelineCoverage(latest) }
  const started = latest.map((j) => j.started_at).filter((s): s is string => s !== null).sort()[0] ?? null
  if (started && !p.started_at) {
    patch.started_at = started
    patch.queued_duration = seconds(p.created_at, started)
  }
  if (isFinishedStatus(status)) {
    patch.finished_at = p.finished_at && isFinishedStatus(p.status) ? p.finished_at : now
    const from = patch.started_at ?? p.started_at
    patch.duration = from ? seconds(from, patch.finished_at) : null
  } else {
    patch.finished_at = null
    patch.duration = null
  }
  const changed = (Object.keys(patch) as (keyof PipelineRow)[]).some((k) => patch[k] !== p[k])
  if (!changed) return p
  patch.updated_at = now
  updatePipeline(app.db, pipelineId, patch)
  const row = { ...p, ...patch }
  if (isFinishedStatus(status) && !isFinishedStatus(p.status)) emitPipelineFinished(app, row)
  return row
}

/** Delayed jobs whose time has come are queued; answers how many. */
export function enqueueDueJobs(app: AppDeps): number {
  const due = jobs.dueScheduledJobs(app.db, app.clock.now().toISOString())
  const pipelines = new Set<number>()
  for (const job of due) {
    const now = app.clock.now().toISOString()
    if (jobs.transitionJob(app.db, job.id, ['scheduled'], { status: 'pending', queued_at: now, updated_at: now })) pipelines.add(job.pipeline_id)
  }
  for (const id of pipelines) refreshPipeline(app, id)
  if (pipelines.size) emitJobQueued(app)
  return due.length
}
