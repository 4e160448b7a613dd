// Job and CI variable shapes of GitLab 17 (`Entities::Ci::Job`, `Entities::Ci::Variable`).
import { z } from 'zod'
import { PipelineBasic } from './pipelines.js'
import { Commit } from './repository.js'
import { User } from './users.js'

const nstr = z.string().nullable()

export const JobArtifact = z.object({
  file_type: z.enum(['archive', 'metadata', 'trace']),
  size: z.number().int(),
  filename: z.string(),
  file_format: z.enum(['zip', 'gzip', 'raw']),
})

export const JobRunner = z.object({
  id: z.number().int(),
  description: z.string(),
  ip_address: nstr,
  active: z.boolean(),
  paused: z.boolean(),
  is_shared: z.boolean(),
  runner_type: z.string(),
  name: z.string(),
  online: z.boolean(),
  status: z.string(),
})

export const Job = z.object({
  id: z.number().int(),
  status: z.string(),
  stage: z.string(),
  name: z.string(),
  ref: z.string(),
  tag: z.boolean(),
  coverage: z.number().nullable(),
  allow_failure: z.boolean(),
  created_at: z.string(),
  started_at: nstr,
  finished_at: nstr,
  erased_at: nstr,
  duration: z.number().nullable(),
  queued_duration: z.number().nullable(),
  user: User.nullable(),
  commit: Commit.nullable(),
  pipeline: PipelineBasic,
  failure_reason: z.string().optional(),
  web_url: z.string(),
  project: z.object({ ci_job_token_scope_enabled: z.boolean() }),
  artifacts_file: z.object({ filename: z.string(), size: z.number().int() }).optional(),
  artifacts: z.array(JobArtifact),
  runner: JobRunner.nullable(),
  artifacts_expire_at: nstr,
  archived: z.boolean(),
  tag_list: z.array(z.string()),
})
export type Job = z.infer<typeof Job>

export const CiVariable = z.object({
  variable_type: z.enum(['env_var', 'file']),
  key: z.string(),
  value: z.string(),
  protected: z.boolean(),
  masked: z.boolean(),
  raw: z.boolean(),
  environment_scope: z.string(),
  description: nstr,
})
export type CiVariable = z.infer<typeof CiVariable>
