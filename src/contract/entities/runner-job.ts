// The job a runner receives from POST /jobs/request (lib/api/entities/ci/job_request/*.rb), as gitlab-runner decodes
// it into Go types: every field has its JSON type, and nothing in it names a path of the server's disk.
import { z } from 'zod'

export const RunnerJobVariable = z.object({
  key: z.string(), value: z.string(), public: z.boolean(), masked: z.boolean(), file: z.boolean(), raw: z.boolean(),
})

export const RunnerJobStep = z.object({
  name: z.enum(['script', 'after_script', 'release']),
  script: z.array(z.string()),
  timeout: z.number().int(),
  when: z.enum(['on_success', 'on_failure', 'always']),
  allow_failure: z.boolean(),
})

export const RunnerJobArtifacts = z.object({
  name: z.string(), untracked: z.boolean(), paths: z.array(z.string()), exclude: z.array(z.string()),
  when: z.enum(['on_success', 'on_failure', 'always']), artifact_type: z.string(), artifact_format: z.string(),
  expire_in: z.string().nullable(),
})

export const RunnerJobDependency = z.object({
  id: z.number().int(), name: z.string(),
  /** The token to download the dependency's artifacts with: the receiving job's own (GitLab sends the running job's). */
  token: z.string(),
  artifacts_file: z.object({ filename: z.string(), size: z.number().int() }),
})

export const RunnerJobPayload = z.object({
  id: z.number().int(),
  token: z.string(),
  allow_git_fetch: z.boolean(),
  job_info: z.object({
    id: z.number().int(), name: z.string(), stage: z.string(), project_id: z.number().int(), project_name: z.string(),
  }),
  git_info: z.object({
    repo_url: z.string(), ref: z.string(), sha: z.string(), before_sha: z.string(), ref_type: z.enum(['branch', 'tag']),
    refspecs: z.array(z.string()), depth: z.number().int(), repo_object_format: z.string(),
  }),
  runner_info: z.object({ timeout: z.number().int() }),
  variables: z.array(RunnerJobVariable),
  steps: z.array(RunnerJobStep),
  image: z.object({ name: z.string() }).passthrough().nullable(),
  services: z.array(z.unknown()),
  artifacts: z.array(RunnerJobArtifacts),
  cache: z.array(z.unknown()),
  credentials: z.array(z.unknown()),
  dependencies: z.array(RunnerJobDependency),
  features: z.record(z.string(), z.unknown()),
})

export type RunnerJobPayload = z.infer<typeof RunnerJobPayload>
export type RunnerJobArtifactsSpec = z.infer<typeof RunnerJobArtifacts>

/** The states a runner reports with PUT /jobs/:id. */
export type JobState = 'running' | 'success' | 'failed' | 'canceled'

/** gitlab-runner's failure reasons that collab's runner produces. */
export type FailureReason = 'script_failure' | 'job_execution_timeout' | 'runner_system_failure' | 'unknown_failure'

export interface JobUpdate {
  state: JobState
  failure_reason?: FailureReason
  exit_code?: number
}
