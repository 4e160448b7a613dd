// Environments and deployments as CI makes them: a job with `environment:` finds or creates its environment when it is
// created, and a start job gets a deployment whose status follows the job's (migration 036's trigger). When the job
// ends the environment moves: a successful deployment starts it (url, tier, auto-stop renewed), a stop job stops it.
import { COMPLETED_STATUSES } from '../../core/job-status.js'
import type { AppDeps } from '../context.js'
import { isAncestor } from '../git/read.js'
import { repositoryDir } from '../git/repository.js'
import * as store from '../store/environments.js'
import type { DeploymentRow, EnvironmentRow } from '../store/environments.js'
import { findJobById, latestPipelineJobs, type JobRow } from '../store/ci-jobs.js'
import { allocateIid } from '../store/issues.js'
import { environmentSlug, guessTier } from './config/environment.js'
import { parseCiDuration } from '../../core/durations.js'
import type { JobEnvironmentSpec, JobSpec } from './plan-types.js'
import { specOf } from './scheduler.js'

const addSeconds = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000).toISOString()

export interface NewEnvironment { name: string; externalUrl?: string | null; tier?: string | null; autoStopIn?: string | null }

/** Inserts an environment: its slug from the name, its tier given or guessed from the name. */
export function createEnvironment(app: AppDeps, projectId: number, input: NewEnvironment): EnvironmentRow {
  const now = app.clock.now()
  const autoStop = input.autoStopIn ? parseCiDuration(input.autoStopIn) : null
  return store.insertEnvironment(app.db, {
    project_id: projectId, name: input.name, slug: environmentSlug(input.name), external_url: input.externalUrl || null, state: 'available',
    tier: input.tier ?? guessTier(input.name), auto_stop_at: autoStop === null ? null : addSeconds(now, autoStop),
    created_at: now.toISOString(), updated_at: now.toISOString(),
  })
}

export const findOrCreateEnvironment = (app: AppDeps, projectId: number, input: NewEnvironment) =>
  store.findEnvironmentByName(app.db, projectId, input.name) ?? createEnvironment(app, projectId, input)

/** The next deployment of an environment, its iid from the project's counter in the same transaction. */
export function insertDeployment(app: AppDeps, env: EnvironmentRow, d: Pick<DeploymentRow, 'ref' | 'tag' | 'sha' | 'status' | 'user_id' | 'deployable_id' | 'on_stop'>) {
  const now = app.clock.now().toISOString()
  const finished = COMPLETED_STATUSES.has(d.status) ? now : null
  return store.insertDeployment(app.db, {
    ...d, project_id: env.project_id, environment_id: env.id, iid: allocateIid(app.db, env.project_id, 'deployments'),
    created_at: now, updated_at: now, finished_at: finished,
  })
}

/**
 * Environments::CreateForJobService and Deployments::CreateForJobService, for a job just inserted: the environment
 * exists from then on, and a job that starts it (the default action) has its deployment. A name that expanded to
 * nothing valid leaves the job without an environment, as GitLab falls back to a plain job.
 */
export function linkJobEnvironment(app: AppDeps, job: JobRow, spec: JobSpec) {
  const env = spec.environment
  if (!env || !env.name) return
  const environment = findOrCreateEnvironment(app, job.project_id, { name: env.name, tier: env.deploymentTier, autoStopIn: env.autoStopIn })
  if (env.action !== 'start') return
  insertDeployment(app, environment, {
    ref: job.ref, tag: job.tag, sha: job.sha, status: job.status === 'manual' ? 'blocked' : 'created', user_id: job.user_id,
    deployable_id: job.id, on_stop: env.onStop,
  })
}

/** The CI_ENVIRONMENT_* variables of a job with an environment (Ci::Build#persisted_environment_variables). */
export function environmentVariables(app: AppDeps, job: JobRow, spec: JobSpec): Record<string, string> {
  const env = spec.environment
  const row = env && store.findEnvironmentByName(app.db, job.project_id, env.name)
  if (!env || !row) return {}
  const out: Record<string, string> = {
    CI_ENVIRONMENT_NAME: row.name, CI_ENVIRONMENT_SLUG: row.slug, CI_ENVIRONMENT_ACTION: env.action,
    CI_ENVIRONMENT_TIER: env.deploymentTier ?? row.tier,
  }
  const url = env.url || row.external_url
  if (url) out.CI_ENVIRONMENT_URL = url
  return out
}

/** Deployments::UpdateEnvironmentService: what a successful deployment renews, then the environment starts again. */
function deployed(app: AppDeps, env: EnvironmentRow, spec: JobEnvironmentSpec) {
  const now = app.clock.now()
  const patch: store.EnvironmentPatch = { updated_at: now.toISOString() }
  if (spec.url) patch.external_url = spec.url
  if (spec.deploymentTier) patch.tier = spec.deploymentTier
  const autoStop = spec.autoStopIn ? parseCiDuration(spec.autoStopIn) : null
  if (autoStop !== null) patch.auto_stop_at = addSeconds(now, autoStop)
  store.updateEnvironment(app.db, env.id, patch)
  store.transitionEnvironment(app.db, env.id, ['stopped', 'stopping'], 'available', now.toISOString())
}

/**
 * A job with an environment has ended (its deployment already follows it): a successful start job renews and starts
 * its environment and links the merge requests it shipped; a stop job that succeeded stops the environment, one that
 * failed or was canceled gives it back (Environments::StopJobSuccessWorker, StopJobFailedWorker).
 */
export function settleEnvironment(app: AppDeps, job: JobRow) {
  const spec = specOf(job).environment
  const env = spec && store.findEnvironmentByName(app.db, job.project_id, spec.name)
  if (!spec || !env) return
  const now = app.clock.now().toISOString()
  if (spec.action === 'start' && job.status === 'success') {
    deployed(app, env, spec)
    const deployment = store.findDeploymentOfJob(app.db, job.id)
    if (deployment) app.tasks.run('linking deployed merge requests', () => linkMergeRequests(app, { ...deployment, status: 'success' }))
  } else if (spec.action === 'stop' && job.status === 'success') {
    store.transitionEnvironment(app.db, env.id, ['available', 'stopping'], 'stopped', now)
  } else if (spec.action === 'stop' && (job.status === 'failed' || job.status === 'canceled')) {
    store.transitionEnvironment(app.db, env.id, ['stopping'], 'available', now)
  }
}

/**
 * Deployments::LinkMergeRequestsService: the merged merge requests into the deployed branch whose merge (or squash, or
 * head) commit the deployment contains and the environment's previous successful deployment did not.
 */
export async function linkMergeRequests(app: AppDeps, d: DeploymentRow) {
  if (d.tag) return
  const gitdir = repositoryDir(app.layout.repositories, d.project_id)
  const previous = store.previousSuccessfulDeployment(app.db, d.environment_id, d.id)
  const shipped: number[] = []
  for (const mr of store.mergedMergeRequestsInto(app.db, d.project_id, d.ref)) {
    const shas = [mr.merge_commit_sha, mr.squash_commit_sha, mr.source_sha].filter((s): s is string => Boolean(s))
    for (const sha of shas) {
      if (!(await isAncestor(gitdir, sha, d.sha))) continue
      if (previous && (await isAncestor(gitdir, sha, previous.sha))) break
      shipped.push(mr.id)
      break
    }
  }
  if (shipped.length) store.linkDeploymentMergeRequests(app.db, d.id, shipped)
}

/**
 * Environment#stop_actions: the on_stop job of the environment's last finished deployment, when it is still a manual
 * job of that pipeline (manual, or played and ended).
 */
export function stopActions(app: AppDeps, env: EnvironmentRow): JobRow[] {
  const last = store.lastFinishedDeployment(app.db, env.id)
  const deployable = last?.deployable_id ? findJobById(app.db, last.deployable_id) : undefined
  if (!last?.on_stop || !deployable) return []
  const job = latestPipelineJobs(app.db, deployable.pipeline_id).find((j) => j.name === last.on_stop)
  const playable = job && job.when_ === 'manual' && (job.status === 'manual' || COMPLETED_STATUSES.has(job.status))
  return playable ? [job] : []
}
