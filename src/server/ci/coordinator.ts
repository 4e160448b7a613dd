// The server's side of gitlab-runner's job protocol (runner/protocol.ts) over the store: the queue, job tokens, the
// payload a job runs with, traces, state updates and artifact uploads.
import { stat } from 'node:fs/promises'
import { CollabError } from '../../core/errors.js'
import { newToken, sha256 } from '../../core/ids.js'
import type { AppDeps } from '../context.js'
import { readCommitInfo } from '../git/read.js'
import { repositoryDir } from '../git/repository.js'
import * as jobs from '../store/ci-jobs.js'
import type { JobRow } from '../store/ci-jobs.js'
import { findPipelineById, pipelineVariables, type PipelineRow } from '../store/pipelines.js'
import { findProjectById, type ProjectView } from '../store/projects.js'
import { findUserById } from '../store/users.js'
import { currentSettings } from '../store/settings-record.js'
import { findMergeRequestById, sourceProjectOf } from '../store/merge-requests.js'
import { mergeRequestFacts } from './triggers.js'
import { JOB_TOKEN_PREFIX } from '../../core/token-prefixes.js'
import { artifactsPath, storeArtifacts } from './artifacts.js'
import { expireInSeconds } from '../../core/durations.js'
import { ciBaseUrl, emitJobQueued, emitJobStarted, onJobCanceled } from './lifecycle-events.js'
import { finishJob } from './lifecycle-finish.js'
import type { JobSpec } from './plan-types.js'
import type { JobCoordinator, JobDependency, JobPayload, JobStep } from './runner/protocol.js'
import { releaseScript } from './releaser.js'
import { refreshPipeline, specOf } from './scheduler.js'
import { appendTrace } from './traces.js'
import { jobVariables, ZERO_SHA } from './variables.js'

/** gitlab-runner's default output_limit: a trace past 4 MiB keeps a notice instead of the rest. */
const TRACE_CAP = 4 * 1024 * 1024
const DEFAULT_TIMEOUT = 3600
const AFTER_SCRIPT_TIMEOUT = 300
const HEARTBEAT_WRITE_MS = 60_000
const DEFAULT_ARTIFACTS_EXPIRY = 30 * 24 * 3600

const tokenRefused = () => new CollabError('JOB_TOKEN_INVALID', '403 Forbidden', { status: 403 })

function steps(spec: JobSpec): JobStep[] {
  const timeout = spec.timeout ?? DEFAULT_TIMEOUT
  const out: JobStep[] = [{ name: 'script', script: [...spec.beforeScript, ...spec.script], timeout, when: 'on_success', allow_failure: false }]
  // GitLab's order (Ci::Build::Step): the release after the script, when it succeeded; after_script last.
  if (spec.release) out.push({ name: 'release', script: releaseScript(spec.release), timeout, when: 'on_success', allow_failure: false })
  if (spec.afterScript.length) out.push({ name: 'after_script', script: spec.afterScript, timeout: AFTER_SCRIPT_TIMEOUT, when: 'always', allow_failure: true })
  return out
}

/** The jobs whose artifacts this one downloads: its `needs` (those with artifacts) or every earlier stage, cut by `dependencies`. */
function dependencies(app: AppDeps, job: JobRow, spec: JobSpec): JobDependency[] {
  const latest = jobs.latestPipelineJobs(app.db, job.pipeline_id).filter((j) => j.id !== job.id)
  let from = spec.needs === null
    ? latest.filter((j) => j.stage_idx < job.stage_idx)
    : latest.filter((j) => spec.needs!.some((n) => n.job === j.name && n.artifacts))
  if (spec.dependencies !== null) from = from.filter((j) => spec.dependencies!.includes(j.name))
  const now = app.clock.now().toISOString()
  return from.map((j) => {
    const live = j.artifacts_file !== null && (j.artifacts_expire_at === null || j.artifacts_expire_at > now)
    return { id: j.id, name: j.name, artifacts_path: live ? artifactsPath(app.layout, j.id) : null }
  })
}

async function payloadOf(app: AppDeps, job: JobRow, token: string, project: ProjectView, pipeline: PipelineRow, baseUrl: string): Promise<{ payload: JobPayload; masks: string[] }> {
  const spec = specOf(job)
  const gitdir = repositoryDir(app.layout.repositories, project.id)
  const c = await readCommitInfo(gitdir, job.sha).catch(() => null)
  const user = pipeline.user_id === null ? null : findUserById(app.db, pipeline.user_id) ?? null
  const facts = {
    project, ref: job.ref, tag: job.tag === 1, sha: job.sha, beforeSha: pipeline.before_sha, source: pipeline.source, user,
    commit: c && { message: c.message, timestamp: c.committedDate, author: `${c.authorName} <${c.authorEmail}>` }, pipeline,
    mergeRequest: mergeRequestOf(app, pipeline),
  }
  const variables = jobVariables({ app, baseUrl, facts, job, spec, token, pipelineVariables: pipelineVariables(app.db, pipeline.id) })
  const url = new URL(baseUrl)
  const a = spec.artifacts
  const payload: JobPayload = {
    id: job.id, token,
    job_info: { name: job.name, stage: job.stage, project_id: project.id, project_name: project.name },
    git_info: {
      repo_url: `${url.protocol}//gitlab-ci-token:${token}@${url.host}/${project.ns_full_path}/${project.path}.git`,
      ref: job.ref, sha: job.sha, before_sha: pipeline.before_sha ?? ZERO_SHA, ref_type: job.tag ? 'tag' : 'branch',
      refspecs: [refspecOf(job)], depth: 20,
    },
    runner_info: { timeout: spec.timeout ?? DEFAULT_TIMEOUT },
    variables, steps: steps(spec),
    artifacts: a ? [{
      name: a.name ?? 'artifacts', untracked: a.untracked, paths: a.paths, exclude: a.exclude, when: a.when,
      artifact_type: 'archive', artifact_format: 'zip', expire_in: a.expireIn,
    }] : [],
    dependencies: dependencies(app, job, spec),
    allow_failure_exit_codes: spec.allowFailureExitCodes ?? [],
    image: spec.image, services: spec.services, cache: spec.cache,
  }
  return { payload, masks: [token, ...variables.filter((v) => v.masked && v.value).map((v) => v.value)] }
}

/** What the runner fetches: a full ref (a merge request's) as itself, a tag as a tag, a branch as origin's. */
function refspecOf(job: JobRow): string {
  if (job.ref.startsWith('refs/')) return `+${job.ref}:${job.ref}`
  return job.tag ? `+refs/tags/${job.ref}:refs/tags/${job.ref}` : `+refs/heads/${job.ref}:refs/remotes/origin/${job.ref}`
}

/** The merge request of a merge_request_event pipeline, as its jobs' CI_MERGE_REQUEST_* variables describe it. */
function mergeRequestOf(app: AppDeps, pipeline: PipelineRow) {
  const mr = pipeline.merge_request_id === null ? undefined : findMergeRequestById(app.db, pipeline.merge_request_id)
  const source = mr && sourceProjectOf(app.db, mr)
  return mr && source ? mergeRequestFacts(app, mr, source) : undefined
}

/**
 * The oldest pending job the runner accepts, moved to running under a fresh token by a compare-and-swap from pending,
 * so two runners never get the same job.
 */
function claimNext(app: AppDeps, runnerId: string, accepts?: (job: JobRow) => boolean): { job: JobRow; token: string } | null {
  for (;;) {
    const next = accepts ? jobs.pendingJobs(app.db).find(accepts) : jobs.oldestPendingJob(app.db)
    if (!next) return null
    const token = newToken(JOB_TOKEN_PREFIX)
    const now = app.clock.now().toISOString()
    if (jobs.transitionJob(app.db, next.id, ['pending'], { status: 'running', started_at: now, updated_at: now, token_hash: sha256(token), runner_id: runnerId })) {
      return { job: { ...next, status: 'running', started_at: now, token_hash: sha256(token), runner_id: runnerId }, token }
    }
  }
}

/** A job handed to a runner that hung up before it heard of it: back to pending, for the next runner that asks. */
export function requeueJob(app: AppDeps, jobId: number) {
  const now = app.clock.now().toISOString()
  if (jobs.transitionJob(app.db, jobId, ['running'], { status: 'pending', started_at: null, token_hash: null, runner_id: null, updated_at: now })) emitJobQueued(app)
}

export function createCoordinator(app: AppDeps): JobCoordinator {
  const masks = new Map<number, string[]>()

  /** The job a token was issued for; the token must be that job's current one. */
  function jobFor(jobId: number, token: string): JobRow {
    const job = jobs.findJobById(app.db, jobId)
    if (!job || job.token_hash === null || job.token_hash !== sha256(token)) throw tokenRefused()
    return job
  }

  return {
    async requestJob(runner) {
      const claimed = claimNext(app, runner.id, runner.accepts)
      if (!claimed) return null
      const { job, token } = claimed
      // The pipeline is running from its first running job on (status, started_at, queued_duration).
      refreshPipeline(app, job.pipeline_id)
      emitJobStarted(app, job)
      const pipeline = findPipelineById(app.db, job.pipeline_id)
      const project = findProjectById(app.db, job.project_id)
      try {
        if (!pipeline || !project) throw new Error('its pipeline or project is gone')
        const { payload, masks: m } = await payloadOf(app, job, token, project, pipeline, runner.baseUrl ?? ciBaseUrl(app))
        // A runner over HTTP masks before it sends (gitlab-runner does): its log is stored byte for byte, or the
        // offsets it counts would no longer match ours.
        masks.set(job.id, runner.masksOwnTrace ? [] : m)
        return payload
      } catch (err) {
        app.log.error(`building the payload of job ${job.id} failed`, err)
        await finishJob(app, job, { state: 'failed', failure_reason: 'runner_system_failure' })
        return null
      }
    },
    async appendTrace(jobId, token, offset, chunk) {
      const job = jobFor(jobId, token)
      if (job.status !== 'running') return { size: job.trace_size, status: job.status }
      const size = await appendTrace(app.layout, jobId, offset, chunk, { masks: masks.get(jobId) ?? [token], capBytes: TRACE_CAP })
      // updated_at is the runner's last word on the job: the stuck-job sweep fails jobs whose runner went quiet.
      jobs.updateJob(app.db, jobId, { trace_size: size, updated_at: app.clock.now().toISOString() })
      return { size, status: jobs.findJobById(app.db, jobId)?.status ?? 'canceled' }
    },
    async updateJob(jobId, token, update) {
      const job = jobFor(jobId, token)
      if (update.state === 'running') {
        // A runner's heartbeat; written at most once a minute, so polling runners do not write on every request.
        const now = app.clock.now()
        if (job.status === 'running' && now.getTime() - Date.parse(job.updated_at) >= HEARTBEAT_WRITE_MS) jobs.updateJob(app.db, jobId, { updated_at: now.toISOString() })
        return { status: job.status }
      }
      masks.delete(jobId)
      return { status: await finishJob(app, job, update) }
    },
    async uploadArtifacts(jobId, token, upload) {
      const job = jobFor(jobId, token)
      const settings = currentSettings(app)
      // max_artifacts_size is in MiB; GitLab refuses a bigger archive with 413 and the job fails.
      if ((await stat(upload.path)).size > settings.max_artifacts_size * 1024 * 1024) {
        throw new CollabError('ARTIFACTS_TOO_LARGE', '413 Request Entity Too Large', { status: 413 })
      }
      const stored = await storeArtifacts(app.layout, jobId, upload.path)
      // Without expire_in, the instance's default_artifacts_expire_in (30 days unless changed).
      const text = upload.expire_in ?? settings.default_artifacts_expire_in
      const expiry = text === null ? null : expireInSeconds(text)
      const seconds = expiry === 'never' ? null : expiry ?? DEFAULT_ARTIFACTS_EXPIRY
      const now = app.clock.now()
      jobs.updateJob(app.db, job.id, {
        artifacts_file: stored.file, artifacts_size: stored.size, artifacts_metadata_size: stored.metadataSize,
        artifacts_expire_at: seconds === null ? null : new Date(now.getTime() + seconds * 1000).toISOString(), updated_at: now.toISOString(),
      })
    },
    onCancel: (jobId, listener) => onJobCanceled(app, jobId, listener),
  }
}
