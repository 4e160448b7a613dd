// What the CI lint endpoints answer (GitLab 17 `Entities::Ci::Lint::Result`, and the older `/ci/lint` shape).
import { z } from 'zod'

/** A job as lint lists it with `include_jobs` (Gitlab::Ci::Lint's static and dry-run job hashes). */
export const CiLintJob = z.object({
  name: z.string(),
  stage: z.string(),
  before_script: z.array(z.string()),
  script: z.array(z.string()),
  after_script: z.array(z.string()),
  tag_list: z.array(z.string()),
  /** Static lint only: the job's only/except as hashes, null when it has rules or none. */
  only: z.unknown().nullable().optional(),
  except: z.unknown().nullable().optional(),
  environment: z.string().nullable(),
  when: z.string(),
  allow_failure: z.boolean(),
  /** Static lint only: GitLab's needs_attributes, null without needs. */
  needs: z.array(z.object({ name: z.string(), artifacts: z.boolean(), optional: z.boolean() })).nullable().optional(),
})

/** One file the config included, with links to it in the project. */
export const CiLintInclude = z.object({
  type: z.string(),
  location: z.string(),
  blob: z.string().nullable(),
  raw: z.string().nullable(),
  extra: z.record(z.string(), z.unknown()),
  context_project: z.string().nullable(),
  context_sha: z.string().nullable(),
})

export const CiLintResult = z.object({
  valid: z.boolean(),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
  merged_yaml: z.string().nullable(),
  includes: z.array(CiLintInclude),
  jobs: z.array(CiLintJob).optional(),
})

/** `POST /ci/lint` as GitLab answered it before 16.0. */
export const LegacyCiLintResult = z.object({
  status: z.enum(['valid', 'invalid']),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
  merged_yaml: z.string().optional(),
  includes: z.array(CiLintInclude).optional(),
  jobs: z.array(CiLintJob).optional(),
})
