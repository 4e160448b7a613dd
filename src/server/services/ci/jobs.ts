// The Jobs API's rules: who may read and act on jobs, scope filters, lookups, and the actions (lifecycle.ts does the moves).
import { PLAYABLE_STATUSES } from '../../../core/job-status.js'
import { CollabError, forbidden, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import * as lifecycle from '../../ci/lifecycle.js'
import { specOf } from '../../ci/scheduler.js'
import { readCommitInfo } from '../../git/read.js'
import { setJobSpec } from '../../store/ci-job-artifacts.js'
import { canReadBuilds, DEVELOPER, MAINTAINER, requireProjectLevel } from '../../policy.js'
import { type JobBundle } from '../../present/jobs.js'
import { findJobById, type JobRow } from '../../store/ci-jobs.js'
import * as lists from '../../store/ci-job-lists.js'
import { findPipelineById, findProjectPipeline, type PipelineRow } from '../../store/pipelines.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { findUserById, type UserRow } from '../../store/users.js'
import { traceSize } from '../../ci/traces.js'
import { mayWriteRef } from './pipelines.js'
import { findVisibleProject } from '../projects/projects.js'
import { gitdirOf } from '../repository/repository.js'
import type { CommitInfo } from '../../git/types.js'

// CommitStatus::AVAILABLE_STATUSES of GitLab 17: the values `scope` may take.
const STATUSES = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceling',
  'canceled', 'skipped', 'manual', 'scheduled'])

/** ActiveRecord's miss, as GitLab's API renders it (lowercase f). */
export const jobNotFound = () => new CollabError('JOB_NOT_FOUND', '404 Not found', { status: 404 })

/** Grape's answer to a value outside `values:`; the scope is coerced first (string, array or hash values). */
export function parseScope(value: unknown): string[] | undefined {
  if (value === undefined) return undefined
  const scope = typeof value === 'string' ? [value] : Array.isArray(value) ? value
    : value !== null && typeof value === 'object' ? Object.values(value) : ['unknown']
  if (!scope.every((s) => typeof s === 'string' && STATUSES.has(s))) {
    throw new CollabError('INVALID_SCOPE', 'scope does not have a valid value', { status: 400, body: { error: 'scope does not have a valid value' } })
  }
  return scope as string[]
}

/** The project of a jobs route: 404 when invisible, 403 when its jobs are not for this caller (policy.ts canReadBuilds). */
export function jobsProject(ctx: RequestContext, id: string): ProjectView {
  const project = findVisibleProject(ctx, id)
  if (!canReadBuilds(ctx, project)) throw forbidden()
  return project
}

export function findJob(ctx: RequestContext, project: ProjectView, jobId: number): JobRow {
  const job = lists.findProjectJob(ctx.app.db, project.id, jobId)
  if (!job) throw jobNotFound()
  return job
}

/** Everything the presenter needs for a page of jobs, each pipeline, user and commit read once. */
export async function bundleJobs(ctx: RequestContext, project: ProjectView, rows: JobRow[]): Promise<JobBundle[]> {
  const db = ctx.app.db
  const pipelines = new Map<number, PipelineRow | undefined>()
  const users = new Map<number, UserRow | undefined>()
  const commits = new Map<string, Promise<CommitInfo | null>>()
  const now = ctx.app.clock.now()
  const out: JobBundle[] = []
  for (const job of rows) {
    if (!pipelines.has(job.pipeline_id)) pipelines.set(job.pipeline_id, findPipelineById(db, job.pipeline_id))
    if (job.user_id !== null && !users.has(job.user_id)) users.set(job.user_id, findUserById(db, job.user_id))
    if (!commits.has(job.sha)) commits.set(job.sha, readCommitInfo(gitdirOf(ctx, project), job.sha).catch(() => null))
    const pipeline = pipelines.get(job.pipeline_id)
    if (!pipeline) continue
    const user = job.user_id === null ? null : users.get(job.user_id) ?? null
    out.push({ job, pipeline, project, user, commit: await commits.get(job.sha)!, traceSize: traceSize(ctx.app.layout, job.id), now })
  }
  return out
}

export const bundleJob = async (ctx: RequestContext, project: ProjectView, job: JobRow) => (await bundleJobs(ctx, project, [job]))[0]

export function listProjectJobs(ctx: RequestContext, project: ProjectView, scope: unknown) {
  const statuses = parseScope(scope)
  // GitLab's project list is every build, retried tries included.
  return lists.listProjectJobs(ctx.app.db, project.id, { statuses, includeRetried: true, limit: ctx.page.limit, offset: ctx.page.offset })
}

export function listPipelineJobs(ctx: RequestContext, project: ProjectView, pipelineId: number, scope: unknown, includeRetried?: boolean) {
  const statuses = parseScope(scope)
  // user_project.all_pipelines.find: ActiveRecord's miss, like GET /pipelines/:id.
  if (!findProjectPipeline(ctx.app.db, project.id, pipelineId)) throw jobNotFound()
  return lists.listPipelineJobs(ctx.app.db, pipelineId, { statuses, includeRetried: includeRetried === true, limit: ctx.page.limit, offset: ctx.page.offset })
}

/**
 * update_build: Developers and up, never in an archived project (read-only, as GitLab's ProjectPolicy has it), and on
 * a protected branch only for who may push or merge into it: a job's variables there include protected secrets.
 */
export function actionable(ctx: RequestContext, id: string, jobId: number) {
  const project = jobsProject(ctx, id)
  requireProjectLevel(ctx, project, DEVELOPER)
  if (project.archived) throw forbidden()
  const job = findJob(ctx, project, jobId)
  if (!mayWriteRef(ctx, project, job.ref, job.tag === 1)) throw forbidden()
  return { project, job }
}

/** `force` (for a job stuck in canceling, which jobs here never are) is for Maintainers only, as in GitLab. */
export function cancelJob(ctx: RequestContext, id: string, jobId: number, force?: boolean) {
  const { project, job } = actionable(ctx, id, jobId)
  if (force) requireProjectLevel(ctx, project, MAINTAINER)
  return { project, job: lifecycle.cancelJob(ctx.app, job.id) }
}

export function retryJob(ctx: RequestContext, id: string, jobId: number) {
  const { project, job } = actionable(ctx, id, jobId)
  return { project, job: lifecycle.retryJob(ctx.app, job.id, ctx.user) }
}

/**
 * Play, with the variables a user gave for this run (job_variables_attributes), which win over every other variable.
 * They are written into the planned job before it is queued (a replay copies them into the new try), so a runner
 * that takes the job at once already sees them; a job that cannot be played is left as it was.
 */
export function play(ctx: RequestContext, id: string, jobId: number, variables: { key: string; value: string }[] = []) {
  const { project, job } = actionable(ctx, id, jobId)
  const playable = !job.retried && (job.when_ === 'manual' || job.when_ === 'delayed') && PLAYABLE_STATUSES.has(job.status)
  if (playable && variables.length) {
    const spec = specOf(job)
    spec.runVariables = { ...spec.runVariables }
    for (const v of variables) spec.runVariables[v.key] = v.value
    setJobSpec(ctx.app.db, job.id, JSON.stringify(spec), ctx.app.clock.now().toISOString())
  }
  return { project, job: lifecycle.playJob(ctx.app, job.id, ctx.user) }
}

/** GET /job: the token's own job; a valid personal token names none (GitLab's validate_current_authenticated_job). */
export function currentJob(ctx: RequestContext) {
  const job = ctx.job ? findJobById(ctx.app.db, ctx.job.id) : undefined
  const project = job && findProjectById(ctx.app.db, job.project_id)
  if (!job || !project) throw notFound('Job')
  return { project, job }
}
