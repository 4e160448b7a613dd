// Pipeline shapes of GitLab 17 (`Entities::Ci::PipelineBasic`, `Entities::Ci::Pipeline`, variables, test report).
import { z } from 'zod'
import { UserBasic } from './users.js'

const nstr = z.string().nullable()
const int = z.number().int()

/** GitLab 17's PipelineBasic: list entries, the `pipeline` of a merge request and of a job. */
export const PipelineBasic = z.object({
  id: int,
  iid: int,
  project_id: int,
  sha: z.string(),
  ref: z.string(),
  status: z.string(),
  source: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  web_url: z.string(),
})
export type PipelineBasic = z.infer<typeof PipelineBasic>

export const DetailedStatus = z.object({
  icon: z.string(),
  text: z.string(),
  label: z.string(),
  group: z.string(),
  tooltip: z.string(),
  has_details: z.boolean(),
  details_path: z.string(),
  illustration: z.null(),
  favicon: z.string(),
})

export const Pipeline = PipelineBasic.extend({
  before_sha: z.string(),
  tag: z.boolean(),
  yaml_errors: nstr,
  user: UserBasic.nullable(),
  started_at: nstr,
  finished_at: nstr,
  committed_at: nstr,
  duration: int.nullable(),
  queued_duration: int.nullable(),
  coverage: nstr,
  detailed_status: DetailedStatus,
})
export type Pipeline = z.infer<typeof Pipeline>

export const PipelineVariable = z.object({ key: z.string(), value: z.string(), variable_type: z.string() })

export const TestReport = z.object({
  total_time: z.number(),
  total_count: int,
  success_count: int,
  failed_count: int,
  skipped_count: int,
  error_count: int,
  test_suites: z.array(z.unknown()),
})
