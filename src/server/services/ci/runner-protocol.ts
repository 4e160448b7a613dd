// The runner protocol's server side over HTTP (lib/api/ci/runner.rb; spec/compat-runner.md): runners authenticate by
// their token, take jobs they accept (tags, projects, protected refs) by compare-and-swap, and report through the job's
// token. The job queue, traces and artifacts are the coordinator's (ci/coordinator.ts), shared with the built-in runner.
import { createReadStream } from 'node:fs'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CollabError, badRequest, forbidden, missingAttribute, notFound } from '../../../core/errors.js'
import { sha256 } from '../../../core/ids.js'
import { FINISHED_STATUSES } from '../../../core/job-status.js'
import type { AppDeps, RequestContext } from '../../context.js'
import { artifactsPath } from '../../ci/artifacts.js'
import { readZipListing } from '../../ci/artifacts-metadata.js'
import { createCoordinator, requeueJob } from '../../ci/coordinator.js'
import { onJobQueued } from '../../ci/lifecycle-events.js'
import { runnerAccepts } from '../../ci/runner-match.js'
import { wirePayload } from '../../ci/runner-payload.js'
import type { FailureReason, JobCoordinator } from '../../ci/runner/protocol.js'
import { findJobById } from '../../store/ci-jobs.js'
import { findRunningJobByTokenHash } from '../../store/ci-job-lists.js'
import * as store from '../../store/ci-runners.js'
import type { RunnerRow } from '../../store/ci-runners.js'
import { insertRunner, resetAuthenticationToken, type RunnerSettingsInput } from './runners.js'

/** How long a runner's request waits for a job when it already holds the latest queue state (GitLab's long polling). */
const LONG_POLL_MS = 5000
/** contacted_at is written at most this often: a runner polling every few seconds must not write on every poll. */
const CONTACT_WRITE_MS = 60_000

interface QueueState { version: number; coordinator: JobCoordinator; waiters: Set<() => void>; unsubscribe: () => void }
const queues = new WeakMap<AppDeps, QueueState>()

/** One coordinator per server (its masks of running jobs are kept there), and the queue's version for X-GitLab-Last-Update. */
function queueOf(app: AppDeps): QueueState {
  let q = queues.get(app)
  if (!q) {
    const state: QueueState = { version: app.clock.now().getTime(), coordinator: createCoordinator(app), waiters: new Set(), unsubscribe: () => {} }
    state.unsubscribe = onJobQueued(app, () => {
      state.version++
      for (const w of [...state.waiters]) w()
    })
    queues.set(app, (q = state))
  }
  return q
}

const invalidToken = () => forbidden()

export interface RunnerInfo { name?: string; version?: string; revision?: string; platform?: string; architecture?: string; executor?: string }

const infoOf = (info: unknown): RunnerInfo => {
  if (!info || typeof info !== 'object') return {}
  const pick = (k: string) => { const v = (info as Record<string, unknown>)[k]; return typeof v === 'string' ? v.slice(0, 255) : undefined }
  return { name: pick('name'), version: pick('version'), revision: pick('revision'), platform: pick('platform'), architecture: pick('architecture'), executor: pick('executor') }
}

/** The runner of an authentication token; 403 for any other token, which is what makes gitlab-runner stop asking. */
export function authenticateRunner(ctx: RequestContext, token: string, info?: unknown): RunnerRow {
  const runner = store.findRunnerByTokenHash(ctx.app.db, sha256(token))
  if (!runner) throw invalidToken()
  const now = ctx.app.clock.now()
  const last = runner.contacted_at ? Date.parse(runner.contacted_at) : 0
  const said = infoOf(info)
  const changed = (Object.keys(said) as (keyof RunnerInfo)[]).some((k) => said[k] !== undefined && said[k] !== runner[k])
  if (changed || now.getTime() - last >= CONTACT_WRITE_MS) {
    return store.updateRunner(ctx.app.db, runner.id, { ...said, contacted_at: now.toISOString(), ip_address: ctx.client?.ip ?? null }) ?? runner
  }
  return runner
}

/** POST /runners with a registration token: an instance runner, or a project runner of the token's project. */
export function registerRunner(ctx: RequestContext, input: RunnerSettingsInput & { token: string; maintainer_note?: string; info?: unknown }) {
  const registration = store.findRegistrationByHash(ctx.app.db, sha256(input.token))
  if (!registration) throw invalidToken()
  const settings = { ...input, maintenance_note: input.maintenance_note ?? input.maintainer_note }
  const { row, token } = registration.project_id === null
    ? insertRunner(ctx, 'instance_type', settings, null)
    : insertRunner(ctx, 'project_type', settings, null, registration.project_id)
  store.updateRunner(ctx.app.db, row.id, infoOf(input.info))
  return { id: row.id, token, token_expires_at: row.token_expires_at }
}

export function unregisterRunner(ctx: RequestContext, token: string) {
  store.deleteRunner(ctx.app.db, authenticateRunner(ctx, token).id)
}

export const resetTokenByToken = (ctx: RequestContext, token: string) => resetAuthenticationToken(ctx, authenticateRunner(ctx, token))

export type JobRequestAnswer = { status: 201; payload: unknown } | { status: 204; lastUpdate: string }

function waitForQueue(q: QueueState, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); q.waiters.delete(done); signal?.removeEventListener('abort', done); resolve() }
    const timer = setTimeout(done, LONG_POLL_MS)
    timer.unref?.()
    q.waiters.add(done)
    signal?.addEventListener('abort', done)
  })
}

/** POST /jobs/request: a job the runner accepts, else 204; held open while the runner already knows the latest queue. */
export async function requestJob(ctx: RequestContext, input: { token: string; last_update?: string; info?: unknown }): Promise<JobRequestAnswer> {
  const runner = authenticateRunner(ctx, input.token, input.info)
  const q = queueOf(ctx.app)
  if (runner.paused) return { status: 204, lastUpdate: String(q.version) }
  if (input.last_update === String(q.version)) await waitForQueue(q, ctx.aborted)
  // A runner that hung up while it waited (it is stopping) would never hear of a job handed to it now.
  if (ctx.aborted?.aborted) return { status: 204, lastUpdate: String(q.version) }
  const projects = runner.runner_type === 'project_type' ? store.runnerProjectIds(ctx.app.db, runner.id) : null
  const version = q.version
  const payload = await q.coordinator.requestJob({
    id: String(runner.id), concurrency: 1, baseUrl: ctx.baseUrl, masksOwnTrace: true, accepts: (job) => runnerAccepts(ctx.app, runner, projects, job),
  })
  if (!payload) return { status: 204, lastUpdate: String(version) }
  // Hung up while the job was being handed over: it goes back to the queue instead of staying running for nobody.
  if (ctx.aborted?.aborted) {
    requeueJob(ctx.app, payload.id)
    return { status: 204, lastUpdate: String(q.version) }
  }
  return { status: 201, payload: wirePayload(ctx.app, payload, runner) }
}

/** The job token of a runner route: JOB-TOKEN, else the `token` parameter. */
export function jobTokenOf(ctx: RequestContext, token: string | undefined): string {
  const t = ctx.headers?.['job-token'] ?? token
  if (!t) throw invalidToken()
  return t
}

/** What a runner may report: running, or how the job finished. */
const STATES = new Set(['running', ...FINISHED_STATUSES])
const REASONS = new Set<string>(['script_failure', 'job_execution_timeout', 'runner_system_failure', 'unknown_failure', 'stuck_or_timeout_failure',
  'api_failure', 'runner_unsupported', 'stale_schedule', 'job_canceled', 'archived_failure', 'unmet_prerequisites', 'scheduler_failure',
  'data_integrity_failure', 'forward_deployment_failure', 'user_blocked', 'project_deleted', 'insufficient_bridge_permissions',
  'downstream_bridge_project_not_found', 'invalid_bridge_trigger', 'bridge_pipeline_is_child_pipeline', 'downstream_pipeline_creation_failed',
  'secrets_provider_not_found', 'reached_max_descendant_pipelines_depth', 'ip_restriction_failure'])

/** PUT /jobs/:id: the runner's report of the job's state; a job no longer running answers with its status in Job-Status. */
export async function updateJobState(ctx: RequestContext, id: number, token: string, input: { state?: string; failure_reason?: string; exit_code?: number }) {
  const state = input.state ?? 'running'
  if (!STATES.has(state)) throw badRequest('state is invalid')
  const reason = input.failure_reason && REASONS.has(input.failure_reason) ? input.failure_reason as FailureReason : undefined
  const { status } = await queueOf(ctx.app).coordinator.updateJob(id, token, {
    state: state as 'running', failure_reason: reason ?? (state === 'failed' ? 'unknown_failure' : undefined), exit_code: input.exit_code,
  })
  return status
}

/** `Content-Range: START-END` (END inclusive, no unit), as gitlab-runner sends it. */
function rangeStart(header: string | undefined): number {
  if (header === undefined) throw new CollabError('MISSING_CONTENT_RANGE', '400 Missing header Content-Range', { status: 400 })
  const m = /^(?:bytes[ =])?(\d+)-(\d+)?/.exec(header.trim())
  if (!m) throw new CollabError('BAD_CONTENT_RANGE', '416 Range Not Satisfiable', { status: 416 })
  return Number(m[1])
}

export async function appendTrace(ctx: RequestContext, id: number, token: string, range: string | undefined, chunk: Buffer) {
  const start = rangeStart(range)
  return queueOf(ctx.app).coordinator.appendTrace(id, token, start, chunk)
}

export const missingArtifactsFile = () => missingAttribute('file')

/** The multipart `file`: a temporary file the body reader wrote (uploadsToDisk), or bytes held in memory. */
async function uploadedPath(file: unknown): Promise<{ path: string; cleanup(): Promise<void> }> {
  const f = file as { path?: unknown; data?: unknown } | undefined
  if (f && typeof f.path === 'string') return { path: f.path, cleanup: async () => {} }
  if (!f || !Buffer.isBuffer(f.data)) throw missingArtifactsFile()
  const dir = await mkdtemp(join(tmpdir(), 'collab-artifacts-'))
  const path = join(dir, 'artifacts.zip')
  await writeFile(path, f.data)
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

export async function uploadArtifacts(ctx: RequestContext, id: number, token: string, file: unknown, expireIn: string | undefined) {
  const upload = await uploadedPath(file)
  try {
    // A job may send anything: what is not a zip is refused before it takes the place of the job's archive.
    await readZipListing(upload.path).catch(() => { throw badRequest('the artifacts archive is not a zip file') })
    await queueOf(ctx.app).coordinator.uploadArtifacts(id, token, { path: upload.path, expire_in: expireIn ?? null, artifact_type: 'archive', artifact_format: 'zip' })
  } finally {
    await upload.cleanup()
  }
}

/**
 * GET /jobs/:id/artifacts for a dependency: the token is a running job's of the same pipeline (GitLab's
 * authenticate_job_via_dependent_job!), or the job's own.
 */
export async function artifactsForRunner(ctx: RequestContext, id: number, token: string) {
  const asker = findRunningJobByTokenHash(ctx.app.db, sha256(token))
  const job = findJobById(ctx.app.db, id)
  if (!asker || !job || (asker.id !== job.id && asker.pipeline_id !== job.pipeline_id)) throw forbidden()
  if (!job.artifacts_file) throw notFound('Artifact')
  const path = artifactsPath(ctx.app.layout, job.id)
  const size = (await stat(path)).size
  return { stream: createReadStream(path), size }
}
