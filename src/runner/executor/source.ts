// What the executor needs from the server that hands it jobs: the runner protocol's operations on one job, in the wire
// payload's terms. Over HTTP it is http-source.ts (any GitLab or collab serve); in-process, the server's local runner.
import type { JobUpdate, RunnerJobPayload } from '../../contract/entities/runner-job.js'

export interface TraceAnswer {
  /** The log's size at the server after the append: where the next one starts. */
  size: number
  /** The job's status as the server holds it: anything but `running` tells the runner to stop (Job-Status). */
  status: string
}

/** The server has another size for the log than the runner counted (HTTP 416): resume from `size`. */
export class TraceOffsetMismatch extends Error {
  constructor(readonly size: number) {
    super(`the server holds ${size} bytes of the log`)
  }
}

/** The server refuses the job's token (HTTP 403): the job ended or was removed, so the runner stops working on it. */
export class JobGone extends Error {}

/** The server refuses the runner's own token (HTTP 403 to a job request): the runner was removed, or its token reset. */
export class RunnerRefused extends Error {}

export interface JobSource {
  /** The next job for this runner, or null when there is none now. */
  requestJob(signal?: AbortSignal): Promise<RunnerJobPayload | null>
  /** Answers the job's status at the server after the update. */
  updateJob(jobId: number, token: string, update: JobUpdate): Promise<{ status: string }>
  /** Appends at `offset`; throws TraceOffsetMismatch or JobGone. */
  appendTrace(jobId: number, token: string, offset: number, chunk: Buffer): Promise<TraceAnswer>
  uploadArtifacts(jobId: number, token: string, zipPath: string, expireIn: string | null): Promise<void>
  /** The artifacts archive of a dependency, with the running job's token, to `toPath`. */
  downloadArtifacts(dependencyId: number, token: string, toPath: string): Promise<void>
  /** In-process sources say at once when a job is canceled; over HTTP the trace answer's status says it. */
  onCancel?(jobId: number, listener: () => void): () => void
}

/** Something that runs jobs it asks a source for. */
export interface Executor {
  start(): void
  /** Stops asking for jobs, kills running ones and waits for them to report. */
  stop(): Promise<void>
  /** Jobs running now. */
  running(): number
  /** Asks for jobs now instead of at the next poll. */
  notify(): void
}
