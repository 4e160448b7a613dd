// Per-server CI state: the URL jobs reach us at, and the events other features (webhooks, the executor's cancel
// signal) subscribe to. Keyed by app, so every server (and every test) has its own. A finished pipeline is an app
// event (app-events.ts): merge when pipeline succeeds hears it there.
import type { AppDeps } from '../context.js'
import type { JobRow } from '../store/ci-jobs.js'

export { emitPipelineFinished, onPipelineFinished } from '../app-events.js'

export type JobFinishedListener = (app: AppDeps, job: JobRow) => void | Promise<void>

interface CiState {
  baseUrl: string | null
  jobFinished: Set<JobFinishedListener>
  /** Told when a runner takes a job (pending to running): webhooks' Job and Pipeline Hooks. */
  jobStarted: Set<JobFinishedListener>
  /** Listeners of in-process executors, told when the job they run is canceled. */
  cancel: Map<number, Set<() => void>>
  /** Called when a job became pending, so an idle executor asks at once instead of at its next poll. */
  queued: Set<() => void>
}

const states = new WeakMap<AppDeps, CiState>()

export function ciState(app: AppDeps): CiState {
  let s = states.get(app)
  if (!s) states.set(app, (s = { baseUrl: null, jobFinished: new Set(), jobStarted: new Set(), cancel: new Map(), queued: new Set() }))
  return s
}

/** The URL the server listens on: set by listen(), read for CI_SERVER_URL and the clone URL. */
export const setCiBaseUrl = (app: AppDeps, url: string) => { ciState(app).baseUrl = url }
export const ciBaseUrl = (app: AppDeps) => ciState(app).baseUrl ?? 'http://127.0.0.1'

function subscribe<T>(set: Set<T>, listener: T): () => void {
  set.add(listener)
  return () => set.delete(listener)
}

export const onJobFinished = (app: AppDeps, l: JobFinishedListener) => subscribe(ciState(app).jobFinished, l)
export const onJobStarted = (app: AppDeps, l: JobFinishedListener) => subscribe(ciState(app).jobStarted, l)
export const onJobQueued = (app: AppDeps, l: () => void) => subscribe(ciState(app).queued, l)

export function emitJobFinished(app: AppDeps, job: JobRow) {
  for (const l of ciState(app).jobFinished) app.tasks.run('job finished hook', () => l(app, job))
}

export function emitJobStarted(app: AppDeps, job: JobRow) {
  for (const l of ciState(app).jobStarted) app.tasks.run('job started hook', () => l(app, job))
}

export function emitJobQueued(app: AppDeps) {
  for (const l of ciState(app).queued) l()
}

export function onJobCanceled(app: AppDeps, jobId: number, listener: () => void): () => void {
  const map = ciState(app).cancel
  let set = map.get(jobId)
  if (!set) map.set(jobId, (set = new Set()))
  set.add(listener)
  return () => {
    set.delete(listener)
    if (!set.size) map.delete(jobId)
  }
}

export function emitJobCanceled(app: AppDeps, jobId: number) {
  for (const l of ciState(app).cancel.get(jobId) ?? []) l()
}
