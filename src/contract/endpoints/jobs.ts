// The Jobs API (GitLab's lib/api/ci/jobs.rb and ci/job_artifacts.rb): lists, one job, its trace, actions, artifacts, GET /job.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Job } from '../entities/jobs.js'
import { bool, int, ref, str } from '../params.js'

const Id = { id: ref() }
const OneJob = { ...Id, job_id: int() }
// A string, `scope[]=a&scope[]=b` or `scope[x]=a`: checked against the statuses by the service, which answers Grape's error.
const Scope = { scope: z.unknown().optional() }
const Raw = z.string()

export const listProjectJobs = defineEndpoint({
  method: 'GET', path: '/projects/:id/jobs', summary: 'List the jobs of a project, newest first', paginated: true,
  params: Id, input: Scope, responses: { 200: z.array(Job) },
})

export const listPipelineJobs = defineEndpoint({
  method: 'GET', path: '/projects/:id/pipelines/:pipeline_id/jobs', summary: "List a pipeline's jobs", paginated: true,
  params: { ...Id, pipeline_id: int() }, input: { ...Scope, include_retried: bool().optional() }, responses: { 200: z.array(Job) },
})

export const getJob = defineEndpoint({
  method: 'GET', path: '/projects/:id/jobs/:job_id', summary: 'Get a job', params: OneJob, responses: { 200: Job },
})

export const getJobTrace = defineEndpoint({
  method: 'GET', path: '/projects/:id/jobs/:job_id/trace', summary: "Get a job's whole log (text/plain)", raw: true,
  params: OneJob, responses: { 200: Raw },
})

export const cancelJob = defineEndpoint({
  method: 'POST', path: '/projects/:id/jobs/:job_id/cancel', summary: 'Cancel a job', params: OneJob,
  input: { force: bool().optional() }, responses: { 201: Job },
})

export const retryJob = defineEndpoint({
  method: 'POST', path: '/projects/:id/jobs/:job_id/retry', summary: 'Retry a job (a new job)', params: OneJob, responses: { 201: Job },
})

export const playJob = defineEndpoint({
  method: 'POST', path: '/projects/:id/jobs/:job_id/play', summary: 'Run a manual job', params: OneJob,
  input: { job_variables_attributes: z.array(z.object({ key: str(), value: str(10_000) }), { error: 'is invalid' }).optional() },
  responses: { 200: Job },
})

export const eraseJob = defineEndpoint({
  method: 'POST', path: '/projects/:id/jobs/:job_id/erase', summary: "Erase a job's trace and artifacts", params: OneJob, responses: { 201: Job },
})

export const keepJobArtifacts = defineEndpoint({
  method: 'POST', path: '/projects/:id/jobs/:job_id/artifacts/keep', summary: "Keep a job's artifacts from expiring", params: OneJob,
  responses: { 200: Job },
})

export const deleteJobArtifacts = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/jobs/:job_id/artifacts', summary: "Delete a job's artifacts (Maintainer)", params: OneJob,
  responses: { 204: null },
})

export const deleteProjectArtifacts = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/artifacts', summary: "Delete the artifacts of a project's jobs that may be deleted (Maintainer)",
  params: Id, responses: { 202: z.object({ message: z.string() }) },
})

export const downloadJobArtifacts = defineEndpoint({
  method: 'GET', path: '/projects/:id/jobs/:job_id/artifacts', summary: "Download a job's artifacts archive (zip)", raw: true,
  auth: 'optional', jobToken: true, params: OneJob, responses: { 200: Raw },
})

export const getJobArtifactFile = defineEndpoint({
  method: 'GET', path: '/projects/:id/jobs/:job_id/artifacts/:artifact_path', summary: "One file of a job's artifacts", raw: true,
  auth: 'optional', jobToken: true, greedy: ['artifact_path'], params: { ...OneJob, artifact_path: str(4096) },
  responses: { 200: Raw },
})

const ByRef = { ...Id, ref_name: str(1024) }
const JobName = { job: str() }

export const downloadRefArtifacts = defineEndpoint({
  method: 'GET', path: '/projects/:id/jobs/artifacts/:ref_name/download', raw: true, auth: 'optional', jobToken: true, greedy: ['ref_name'],
  summary: 'Download the artifacts of the named job of the latest successful pipeline on a branch or tag',
  params: ByRef, input: JobName, responses: { 200: Raw },
})

export const getRefArtifactFile = defineEndpoint({
  method: 'GET', path: '/projects/:id/jobs/artifacts/:ref_name/raw/:artifact_path', raw: true, auth: 'optional', jobToken: true,
  greedy: ['ref_name', 'artifact_path'], summary: 'One artifact file of the named job of the latest successful pipeline on a ref',
  params: { ...ByRef, artifact_path: str(4096) }, input: JobName, responses: { 200: Raw },
})

export const getCurrentJob = defineEndpoint({
  method: 'GET', path: '/job', summary: "The job of the job token used", jobToken: true,
  responses: { 200: Job },
})
