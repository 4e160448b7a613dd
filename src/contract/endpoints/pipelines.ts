// The Pipelines API (compat-mr-ci-wiki §4.7, GitLab 17 `lib/api/ci/pipelines.rb`).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Pipeline, PipelineBasic, PipelineVariable, TestReport } from '../entities/pipelines.js'
import { bool, int, isoDate, oneOf, ref, str } from '../params.js'

const Id = { id: ref() }
const Pid = { id: ref(), pipeline_id: int() }

export const PIPELINE_STATUSES = [
  'created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled',
] as const
export const PIPELINE_SOURCES = [
  'push', 'web', 'trigger', 'schedule', 'api', 'external', 'pipeline', 'chat', 'webide', 'merge_request_event',
  'external_pull_request_event', 'parent_pipeline', 'ondemand_dast_scan', 'ondemand_dast_validation', 'security_orchestration_policy',
] as const

export const listPipelines = defineEndpoint({
  method: 'GET', path: '/projects/:id/pipelines', summary: 'List project pipelines', auth: 'optional', paginated: true,
  params: Id,
  input: {
    scope: oneOf(['running', 'pending', 'finished', 'branches', 'tags']).optional(),
    status: oneOf(PIPELINE_STATUSES).optional(), ref: str(1024).optional(), sha: str(64).optional(), yaml_errors: bool().optional(),
    username: str().optional(), source: oneOf(PIPELINE_SOURCES).optional(), name: str().optional(),
    updated_after: isoDate().optional(), updated_before: isoDate().optional(),
    created_after: isoDate().optional(), created_before: isoDate().optional(),
    order_by: oneOf(['id', 'status', 'ref', 'updated_at', 'user_id']).optional(), sort: oneOf(['asc', 'desc']).optional(),
  },
  responses: { 200: z.array(PipelineBasic) },
})

export const getLatestPipeline = defineEndpoint({
  method: 'GET', path: '/projects/:id/pipelines/latest', summary: 'The latest pipeline of a ref (the default branch without one)',
  auth: 'optional', params: Id, input: { ref: str(1024).optional() }, responses: { 200: Pipeline },
})

export const getPipeline = defineEndpoint({
  method: 'GET', path: '/projects/:id/pipelines/:pipeline_id', summary: 'Get a single pipeline', auth: 'optional',
  params: Pid, responses: { 200: Pipeline },
})

export const PipelineVariableInput = z.object({
  // Ci::PipelineVariable's key format: anything else could not be an environment variable of the job.
  key: str(255).refine((k) => /^[a-zA-Z0-9_]+$/.test(k), { error: "can contain only letters, digits and '_'." }), value: z.preprocess((v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v), z.string({ error: 'is invalid' })),
  variable_type: oneOf(['env_var', 'file']).optional(),
})

export const createPipeline = defineEndpoint({
  method: 'POST', path: '/projects/:id/pipeline', summary: 'Create a new pipeline for a branch or tag',
  params: Id, input: { ref: str(1024), variables: z.array(PipelineVariableInput, { error: 'is invalid' }).optional() },
  responses: { 201: Pipeline },
})

export const retryPipeline = defineEndpoint({
  method: 'POST', path: '/projects/:id/pipelines/:pipeline_id/retry', summary: 'Retry the failed and canceled jobs of a pipeline',
  params: Pid, responses: { 201: Pipeline },
})

export const cancelPipeline = defineEndpoint({
  method: 'POST', path: '/projects/:id/pipelines/:pipeline_id/cancel', summary: "Cancel a pipeline's running and waiting jobs",
  params: Pid, responses: { 200: Pipeline },
})

export const deletePipeline = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/pipelines/:pipeline_id', summary: 'Delete a pipeline (Owner)',
  params: Pid, responses: { 204: null },
})

export const getPipelineVariables = defineEndpoint({
  method: 'GET', path: '/projects/:id/pipelines/:pipeline_id/variables', summary: 'Variables of a pipeline', auth: 'optional',
  params: Pid, responses: { 200: z.array(PipelineVariable) },
})

export const getPipelineTestReport = defineEndpoint({
  method: 'GET', path: '/projects/:id/pipelines/:pipeline_id/test_report', summary: "A pipeline's test report (always empty here)",
  auth: 'optional', params: Pid, responses: { 200: TestReport },
})
