// What the CI config layer hands to pipeline creation: the jobs of one pipeline after default, extends, rules,
// only/except, parallel:matrix and workflow:rules have been applied. Shared by ci/config, ci/plan and the pipeline services.

export type JobWhen = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed'

export type PipelineSource =
  | 'push' | 'web' | 'api' | 'trigger' | 'schedule' | 'merge_request_event' | 'external' | 'chat' | 'pipeline' | 'parent_pipeline'

export interface JobNeed {
  job: string
  /** Whether the needed job's artifacts are downloaded (default true). */
  artifacts: boolean
  /** A missing optional need is dropped instead of failing the pipeline. */
  optional: boolean
}

export interface JobArtifactsSpec {
  paths: string[]
  exclude: string[]
  when: 'on_success' | 'on_failure' | 'always'
  /** The expire_in text as written ('30 days', '3600', 'never'); null means the instance default. */
  expireIn: string | null
  name: string | null
  untracked: boolean
}

/** One `release:assets:links` entry as written; its values are expanded by the job's shell. */
export interface JobReleaseLink {
  name: string
  url: string
  filepath?: string
  link_type?: string
}

/** The `release:` keyword as GitLab keeps it in a job's options: values as written, empty ones left out. */
export interface JobRelease {
  tag_name: string
  description: string
  tag_message?: string
  name?: string
  ref?: string
  released_at?: string
  milestones?: string[]
  assets?: { links: JobReleaseLink[] }
}

/** A job's `environment:`, its name and url expanded with the pipeline's variables once planned. */
export interface JobEnvironmentSpec {
  name: string
  url: string | null
  action: 'start' | 'stop' | 'prepare' | 'verify' | 'access'
  /** The job that stops the environment (a manual job of the same pipeline with `action: stop`). */
  onStop: string | null
  deploymentTier: 'production' | 'staging' | 'testing' | 'development' | 'other' | null
  autoStopIn: string | null
}

export interface JobSpec {
  name: string
  stage: string
  /** Position of the stage in `stages` (jobs of lower index run first unless `needs` says otherwise). */
  stageIdx: number
  script: string[]
  beforeScript: string[]
  afterScript: string[]
  /** Global, job and matching-rule variables merged (job wins, rule wins over job); values not yet expanded. */
  variables: Record<string, string>
  /** Variables a user gave for one run (a play's job_variables_attributes): they win over every other variable. */
  runVariables?: Record<string, string>
  when: JobWhen
  /** Seconds to wait for a `when: delayed` job; null otherwise. */
  startIn: number | null
  allowFailure: boolean
  /** With `allow_failure: {exit_codes}`: only these exit codes are allowed failures. */
  allowFailureExitCodes: number[] | null
  /** null: the job waits for every earlier stage; [] starts at once (a DAG across stages otherwise). */
  needs: JobNeed[] | null
  /** null: artifacts of every earlier-stage job (or of `needs`); a list limits it. */
  dependencies: string[] | null
  artifacts: JobArtifactsSpec | null
  /** The coverage regex with its slashes stripped, or null. */
  coverageRegex: string | null
  retry: { max: number; when: string[] }
  /** Seconds; null means the project default (1 hour). */
  timeout: number | null
  interruptible: boolean
  /** Accepted and recorded only. */
  image: unknown
  services: unknown
  cache: unknown
  tags: string[]
  /** Made by a `release` step after the script; absent in specs stored before the keyword was read. */
  release?: JobRelease | null
  /** Absent in specs stored before environments existed. */
  environment?: JobEnvironmentSpec | null
}

export interface PipelinePlan {
  stages: string[]
  jobs: JobSpec[]
}

/** Facts about the pipeline being created, for rules, only/except, workflow, include and exists. */
export interface PlanContext {
  source: PipelineSource
  ref: string
  tag: boolean
  sha: string
  /** Predefined, project and pipeline variables visible to `rules:if` and `workflow:rules`. */
  variables: Record<string, string>
  /** Paths changed by the push (or the MR); null when unknown, which makes `rules:changes` true as GitLab does. */
  changedPaths: string[] | null
  /** Reads a file of the pipeline's commit (include:local); null when absent. */
  readFile(path: string): Promise<string | null>
  /** Every file path of the pipeline's commit (for rules:exists). */
  listFiles(): Promise<string[]>
}

export type PlanResult =
  | { kind: 'plan'; plan: PipelinePlan }
  /** workflow:rules (or every job's rules) left nothing to run: no pipeline is created. */
  | { kind: 'skipped'; reason: string }
  /** A broken file: the pipeline is created failed with these yaml_errors and nothing runs. */
  | { kind: 'errors'; errors: string[] }
