// The coordinator's side of the job protocol, shaped like gitlab-runner's (POST /api/v4/jobs/request, PATCH
// /jobs/:id/trace, PUT /jobs/:id, POST /jobs/:id/artifacts): handlers/runner-protocol.ts serves it to runners over
// HTTP, collab serve's own runner child among them.
import type { JobUpdate } from '../../../contract/entities/runner-job.js'
import type { JobRow } from '../../store/ci-jobs.js'

export type { FailureReason, JobState, JobUpdate } from '../../../contract/entities/runner-job.js'

export interface JobVariable {
  key: string
  value: string
  /** Public variables may be shown; masked values are replaced in the trace by the coordinator. */
  public: boolean
  masked: boolean
  /** `file` variables are written to a temp file whose path becomes the value. */
  file?: boolean
  /** Raw values are taken as written: neither the server nor the runner expands references in them. */
  raw?: boolean
}

export interface JobStep {
  name: 'script' | 'release' | 'after_script'
  script: string[]
  /** Seconds. */
  timeout: number
  when: 'on_success' | 'always'
  allow_failure: boolean
}

export interface JobArtifactSpec {
  name: string
  untracked: boolean
  paths: string[]
  exclude: string[]
  when: 'on_success' | 'on_failure' | 'always'
  artifact_type: 'archive'
  artifact_format: 'zip'
  expire_in: string | null
}

export interface JobDependency {
  id: number
  name: string
  /** The zip of the dependency's artifacts, on the coordinator's disk (in-process executors read it directly). */
  artifacts_path: string | null
}

/** The payload of `POST /jobs/request`: everything an executor needs to run one job. */
export interface JobPayload {
  id: number
  token: string
  job_info: { name: string; stage: string; project_id: number; project_name: string }
  /**
   * `refspecs` are what the runner fetches (gitlab-runner's GitInfo.Refspecs): the branch or tag, or a merge request
   * pipeline's refs/merge-requests/<iid>/head, which is no branch.
   */
  git_info: { repo_url: string; ref: string; sha: string; before_sha: string; ref_type: 'branch' | 'tag'; refspecs: string[]; depth: number }
  runner_info: { timeout: number }
  variables: JobVariable[]
  /**
   * `script` holds before_script + script, as gitlab-runner receives them; `release` (a job with `release:`) runs after
   * it when it succeeded; `after_script` runs in its own shell.
   */
  steps: JobStep[]
  artifacts: JobArtifactSpec[]
  dependencies: JobDependency[]
  /** Exit codes that make a failure allowed (allow_failure:exit_codes); the executor reports them as failed anyway. */
  allow_failure_exit_codes: number[]
  image: unknown
  services: unknown
  cache: unknown
}

export interface TraceAppendResult {
  /** The trace's size after the append. */
  size: number
  /** The job's status as the coordinator sees it: `canceled` tells the executor to stop (gitlab-runner's Job-Status). */
  status: string
}


export interface ArtifactUpload {
  /** A zip file the executor wrote; the coordinator moves it into the artifacts store. */
  path: string
  expire_in: string | null
  artifact_type: 'archive'
  artifact_format: 'zip'
}

export interface RunnerAsking {
  id: string
  concurrency: number
  /** Which pending jobs the runner may take (its tags, projects, protected refs); every job when absent. */
  accepts?: (job: JobRow) => boolean
  /** The server's URL as the runner reached it, for the clone URL and CI_SERVER_URL; the listening URL when absent. */
  baseUrl?: string
  /** The runner replaces masked values in the log itself, so the coordinator stores what it sends unchanged. */
  masksOwnTrace?: boolean
}

export interface JobCoordinator {
  /** The next pending job for this runner, or null when there is none (gitlab-runner gets a 204). */
  requestJob(runner: RunnerAsking): Promise<JobPayload | null>
  /** Appends bytes at `offset` (must equal the current size, else a RangeError-like CollabError 416). */
  appendTrace(jobId: number, token: string, offset: number, chunk: Buffer): Promise<TraceAppendResult>
  /** Moves the job to running, success, failed; answers the status the coordinator then holds. */
  updateJob(jobId: number, token: string, update: JobUpdate): Promise<{ status: string }>
  uploadArtifacts(jobId: number, token: string, upload: ArtifactUpload): Promise<void>
  /** In-process executors are told at once when a job they run is canceled (over HTTP, the trace answer says it). */
  onCancel(jobId: number, listener: () => void): () => void
}
