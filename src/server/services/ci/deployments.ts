// The Deployments API's rules: GitLab's DeploymentsFinder filters and their refusals, deployments recorded from
// outside GitLab CI (their environment created when absent), status updates, deletion, and the merge requests shipped.
import { FINISHED_STATUSES } from '../../../core/job-status.js'
import { CollabError, badRequest, forbidden, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { findOrCreateEnvironment, insertDeployment, linkMergeRequests } from '../../ci/environments.js'
import { resolveCommit } from '../../git/read.js'
import { MAINTAINER, canReadCode, requireProjectLevel } from '../../policy.js'
import type { DeploymentBundle } from '../../present/environments.js'
import { findJobById } from '../../store/ci-jobs.js'
import * as store from '../../store/environments.js'
import type { DeploymentRow } from '../../store/environments.js'
import { findMergeRequestById, type MergeRequestRow } from '../../store/merge-requests.js'
import type { ProjectView } from '../../store/projects.js'
import { findUserById } from '../../store/users.js'
import { nameErrors, environmentNotFound, requireReadEnvironments, requireWriteEnvironments } from './environments.js'
import { bundleJobs } from './jobs.js'
import { gitdirOf } from '../repository/repository.js'

export interface DeploymentListInput {
  order_by?: store.DeploymentFilters['orderBy']
  sort?: 'asc' | 'desc'
  updated_after?: string
  updated_before?: string
  finished_after?: string
  finished_before?: string
  environment?: string
  status?: string
}

/** DeploymentsFinder#validate!: filters that would need another sort are refused (InefficientQueryError, a 400). */
function refuseInefficient(input: DeploymentListInput) {
  const orderBy = input.order_by ?? 'id'
  const byUpdated = input.updated_after !== undefined || input.updated_before !== undefined
  const byFinished = input.finished_after !== undefined || input.finished_before !== undefined
  const refuse = (message: string) => { throw badRequest(message) }
  if (byUpdated && byFinished) refuse('Both `updated_at` filter and `finished_at` filter can not be specified')
  if (byUpdated && orderBy !== 'updated_at') refuse('`updated_at` filter requires `updated_at` sort')
  if (byFinished && orderBy !== 'finished_at') refuse('`finished_at` filter requires `finished_at` sort.')
  if (orderBy === 'finished_at' && !byFinished && !FINISHED_STATUSES.has(input.status ?? '')) {
    refuse('`finished_at` sort requires `finished_at` filter or a filter with at least one of the finished statuses.')
  }
  if (byFinished && input.status !== 'success') refuse('`finished_at` filter must be combined with `success` status filter.')
}

const isoOf = (v: string | undefined) => (v === undefined ? undefined : new Date(v).toISOString())

export function listDeployments(ctx: RequestContext, p: ProjectView, input: DeploymentListInput): { rows: DeploymentRow[]; total: number } {
  requireReadEnvironments(ctx, p)
  refuseInefficient(input)
  let environmentId: number | undefined
  if (input.environment !== undefined) {
    const env = store.findEnvironmentByName(ctx.app.db, p.id, input.environment)
    if (!env) return { rows: [], total: 0 }
    environmentId = env.id
  }
  return store.listDeployments(ctx.app.db, {
    projectId: p.id, environmentId, statuses: input.status ? [input.status] : undefined,
    updatedAfter: isoOf(input.updated_after), updatedBefore: isoOf(input.updated_before),
    finishedAfter: isoOf(input.finished_after), finishedBefore: isoOf(input.finished_before),
    orderBy: input.order_by ?? 'id', sort: input.sort ?? 'asc', limit: ctx.page.limit, offset: ctx.page.offset,
  })
}

function findDeployment(ctx: RequestContext, p: ProjectView, id: number): DeploymentRow {
  const d = store.findDeployment(ctx.app.db, p.id, id)
  if (!d) throw environmentNotFound()
  return d
}

export function getDeployment(ctx: RequestContext, p: ProjectView, id: number): DeploymentRow {
  requireReadEnvironments(ctx, p)
  return findDeployment(ctx, p, id)
}

/** Everything the presenter needs for deployments: environments, users and deploying jobs (with pipelines) read once each. */
export async function bundleDeployments(ctx: RequestContext, p: ProjectView, rows: DeploymentRow[]): Promise<DeploymentBundle[]> {
  const db = ctx.app.db
  const jobs = rows.map((d) => (d.deployable_id === null ? undefined : findJobById(db, d.deployable_id))).filter((j) => j !== undefined)
  const jobBundles = new Map((await bundleJobs(ctx, p, jobs)).map((b) => [b.job.id, b]))
  const out: DeploymentBundle[] = []
  for (const d of rows) {
    const environment = store.findEnvironmentById(db, d.environment_id)
    if (!environment) continue
    const user = d.user_id === null ? null : findUserById(db, d.user_id) ?? null
    out.push({ deployment: d, environment, user, deployable: d.deployable_id === null ? null : jobBundles.get(d.deployable_id) ?? null })
  }
  return out
}

/** The environment's last successful deployment, as a single environment's read shows it. */
export async function lastDeploymentOf(ctx: RequestContext, p: ProjectView, environmentId: number): Promise<DeploymentBundle | null> {
  const last = store.lastSuccessfulDeployment(ctx.app.db, environmentId)
  return last ? (await bundleDeployments(ctx, p, [last]))[0] ?? null : null
}

/** Deployments::UpdateEnvironmentService for a deployment made through the API: the environment starts again. */
function deployedThroughApi(ctx: RequestContext, d: DeploymentRow) {
  const now = ctx.app.clock.now().toISOString()
  store.updateEnvironment(ctx.app.db, d.environment_id, { updated_at: now })
  store.transitionEnvironment(ctx.app.db, d.environment_id, ['stopped', 'stopping'], 'available', now)
  ctx.app.tasks.run('linking deployed merge requests', () => linkMergeRequests(ctx.app, d))
}

export interface CreateInput { environment: string; sha: string; ref: string; tag: boolean; status: string }

/** POST /deployments: Developers; the commit and the ref must exist; the environment is found or created by name. */
export async function createDeployment(ctx: RequestContext, p: ProjectView, input: CreateInput): Promise<DeploymentRow> {
  requireReadEnvironments(ctx, p)
  requireWriteEnvironments(ctx, p)
  const gitdir = gitdirOf(ctx, p)
  const invalid = (field: string, message: string) => new CollabError('BAD_REQUEST', message, { status: 400, body: { message: { [field]: [message] } } })
  const sha = await resolveCommit(gitdir, input.sha).catch(() => null)
  if (!sha) throw invalid('sha', 'The commit does not exist')
  if (!(await resolveCommit(gitdir, input.ref).catch(() => null))) throw invalid('ref', 'The branch or tag does not exist')
  const existing = store.findEnvironmentByName(ctx.app.db, p.id, input.environment)
  if (!existing) {
    const errors = nameErrors(ctx, p, input.environment)
    if (errors.length) throw validationFailed({ name: errors })
  }
  const env = existing ?? findOrCreateEnvironment(ctx.app, p.id, { name: input.environment })
  const d = insertDeployment(ctx.app, env, {
    ref: input.ref, tag: input.tag ? 1 : 0, sha, status: input.status, user_id: ctx.user?.id ?? null, deployable_id: null, on_stop: null,
  })
  if (d.status === 'success') deployedThroughApi(ctx, d)
  return d
}

// Deployment's state machine: which statuses an API update may leave (run only from created).
const EVENTS: Record<string, { name: string; from: (s: string) => boolean }> = {
  running: { name: 'run', from: (s) => s === 'created' },
  success: { name: 'succeed', from: (s) => s !== 'success' },
  failed: { name: 'drop', from: (s) => s !== 'failed' },
  canceled: { name: 'cancel', from: (s) => s !== 'canceled' },
}

/** PUT /deployments/:id: only deployments recorded through the API; a CI job's follows its job. */
export function updateDeployment(ctx: RequestContext, p: ProjectView, id: number, status: string): DeploymentRow {
  requireReadEnvironments(ctx, p)
  const d = findDeployment(ctx, p, id)
  requireWriteEnvironments(ctx, p)
  if (d.deployable_id !== null) {
    throw forbidden('Deployments created using GitLab CI can not be updated using the API')
  }
  const event = EVENTS[status]
  if (!event.from(d.status)) throw validationFailed({ status: [`cannot transition via "${event.name}"`] })
  const now = ctx.app.clock.now().toISOString()
  const finished = FINISHED_STATUSES.has(status) ? now : null
  store.updateDeployment(ctx.app.db, d.id, { status, updated_at: now, finished_at: finished })
  const after = findDeployment(ctx, p, id)
  if (status === 'success') deployedThroughApi(ctx, after)
  return after
}

/** Ci::Deployments::DestroyService: Maintainers; never a running deployment or the environment's current one. */
export function deleteDeployment(ctx: RequestContext, p: ProjectView, id: number) {
  requireReadEnvironments(ctx, p)
  const d = findDeployment(ctx, p, id)
  requireProjectLevel(ctx, p, MAINTAINER)
  const refuse = (message: string) => new CollabError('BAD_REQUEST', message, { status: 400, body: { message } })
  if (d.status === 'running') throw refuse('Cannot destroy running deployment')
  if (store.lastSuccessfulDeployment(ctx.app.db, d.environment_id)?.id === d.id) throw refuse('Deployment currently deployed to environment')
  store.deleteDeployment(ctx.app.db, d.id)
}

/** The merge requests a deployment shipped, newest first; a caller who may not read merge requests sees none. */
export function deploymentMergeRequests(ctx: RequestContext, p: ProjectView, id: number): { rows: MergeRequestRow[]; total: number } {
  requireReadEnvironments(ctx, p)
  const d = findDeployment(ctx, p, id)
  if (!canReadCode(ctx, p)) return { rows: [], total: 0 }
  const ids = store.deploymentMergeRequestIds(ctx.app.db, d.id)
  const rows = ids.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit).map((mr) => findMergeRequestById(ctx.app.db, mr)).filter((r) => r !== undefined)
  return { rows, total: ids.length }
}

/** For the environment pages: an environment's last successful deployment, and the job that made a deployment. */
export const lastSuccessfulDeploymentOf = (ctx: RequestContext, environmentId: number) => store.lastSuccessfulDeployment(ctx.app.db, environmentId)

export const deployingJob = (ctx: RequestContext, d: DeploymentRow) => (d.deployable_id === null ? undefined : findJobById(ctx.app.db, d.deployable_id))
