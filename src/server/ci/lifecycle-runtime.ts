// CI while the server listens: the URL jobs reach us at, delayed jobs coming due, the artifacts expiry sweep, jobs of
// silent runners, and jobs a previous process left running. Jobs themselves run in runners (collab serve's is a child
// process): nothing here runs job code. stop() undoes it all.
import type { AppDeps } from '../context.js'
import * as jobs from '../store/ci-jobs.js'
import { findEmbeddedRunner } from '../store/ci-runners.js'
import { eraseArtifacts } from './artifacts.js'
import { setCiBaseUrl } from './lifecycle-events.js'
import { finishJob } from './lifecycle-finish.js'
import { enqueueDueJobs } from './scheduler.js'

const DELAYED_TICK_MS = 1000
const SWEEP_MS = 10 * 60 * 1000
const SILENT_CHECK_MS = 60 * 1000
/** The runner id of jobs an earlier collab ran inside the server process: none of them can still be running. */
const IN_PROCESS_RUNNER = 'collab-shell-runner'
const SWEEP_BATCH = 100

/** Expired artifacts are deleted from disk and the job forgets them (the job itself and its trace stay). */
export async function sweepExpiredArtifacts(app: AppDeps): Promise<number> {
  const now = app.clock.now().toISOString()
  const expired = jobs.jobsWithExpiredArtifacts(app.db, now, SWEEP_BATCH)
  for (const job of expired) {
    await eraseArtifacts(app.layout, job.id)
    jobs.updateJob(app.db, job.id, { artifacts_file: null, artifacts_size: null, artifacts_metadata_size: null, updated_at: now })
  }
  return expired.length
}

/**
 * Jobs of runners that died with the server (the in-process one, and the embedded child's, whose token is made anew)
 * failed as a runner system failure; other runners may still be running theirs, which the stuck-job sweep watches.
 */
async function failOrphans(app: AppDeps, runnerIds: string[]) {
  for (const job of jobs.runningJobs(app.db)) {
    if (job.runner_id !== null && runnerIds.includes(job.runner_id)) await finishJob(app, job, { state: 'failed', failure_reason: 'runner_system_failure' })
  }
}

/** GitLab's stuck timeout for running jobs: a runner silent this long (no log, no update) is gone, and so is its job. */
export const RUNNER_SILENT_MS = 3600_000

export async function failSilentJobs(app: AppDeps): Promise<number> {
  const before = new Date(app.clock.now().getTime() - RUNNER_SILENT_MS).toISOString()
  const silent = jobs.staleRunningJobs(app.db, before)
  for (const job of silent) await finishJob(app, job, { state: 'failed', failure_reason: 'runner_system_failure' })
  return silent.length
}

export function startCi(app: AppDeps, opts: { url: string }): () => Promise<void> {
  setCiBaseUrl(app, opts.url)
  const guard = (name: string, fn: () => unknown) => () => app.tasks.run(name, async () => { await fn() })
  const embedded = findEmbeddedRunner(app.db)
  guard('failing orphaned CI jobs', () => failOrphans(app, [IN_PROCESS_RUNNER, ...(embedded ? [String(embedded.id)] : [])]))()
  const delayed = setInterval(guard('queueing delayed jobs', () => enqueueDueJobs(app)), DELAYED_TICK_MS)
  const sweep = setInterval(guard('artifacts expiry', () => sweepExpiredArtifacts(app)), SWEEP_MS)
  const silent = setInterval(guard('failing jobs of silent runners', () => failSilentJobs(app)), SILENT_CHECK_MS)
  silent.unref()
  delayed.unref()
  sweep.unref()
  return async () => {
    clearInterval(delayed)
    clearInterval(sweep)
    clearInterval(silent)
  }
}
