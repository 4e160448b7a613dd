// What a runner calls (lib/api/ci/runner.rb), as gitlab-runner speaks it (spec/compat-runner.md): registration with a
// registration token, verification, asking for a job, reporting its state, appending its log, and its artifacts.
// The runner authenticates with its token in the body; job routes with the job's token (JOB-TOKEN or `token`).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { RunnerJobPayload } from '../entities/runner-job.js'
import { RunnerRegistration, TokenResult } from '../entities/runners.js'
import { bool, int, str } from '../params.js'
import { RunnerSettings } from './runners.js'

const RunnerToken = { token: str(1024) }
const JobId = { id: int() }
const JobToken = { token: str(1024).optional() }
const Raw = z.string()

export const registerRunner = defineEndpoint({
  method: 'POST', path: '/runners', summary: 'Register a runner with a registration token (deprecated flow)', auth: 'public',
  input: { ...RunnerToken, ...RunnerSettings, maintainer_note: str().optional(), active: bool().optional(), info: z.unknown().optional() },
  responses: { 201: RunnerRegistration },
})

export const unregisterRunner = defineEndpoint({
  method: 'DELETE', path: '/runners', summary: 'Remove the runner whose token is given', auth: 'public', input: RunnerToken,
  responses: { 204: null },
})

export const verifyRunner = defineEndpoint({
  method: 'POST', path: '/runners/verify', summary: "Check a runner's authentication token", auth: 'public', raw: true,
  input: { ...RunnerToken, system_id: str().optional() }, responses: { 200: Raw },
})

export const resetRunnerTokenByToken = defineEndpoint({
  method: 'POST', path: '/runners/reset_authentication_token', summary: "Reset a runner's authentication token with the current one",
  auth: 'public', input: RunnerToken, responses: { 201: TokenResult },
})

export const requestJob = defineEndpoint({
  method: 'POST', path: '/jobs/request', auth: 'public', longPoll: true,
  summary: 'Ask for a job: 201 with it, or 204 (with X-GitLab-Last-Update) when none comes within a few seconds',
  input: {
    ...RunnerToken, last_update: str().optional(), system_id: str().optional(), info: z.unknown().optional(),
    session: z.unknown().optional(), job_age: int().optional(),
  },
  responses: { 201: RunnerJobPayload, 204: null },
})

export const updateJobState = defineEndpoint({
  method: 'PUT', path: '/jobs/:id', summary: "Report a job's state (running, success, failed)", auth: 'public', raw: true,
  headers: ['job-token'], params: JobId,
  input: {
    ...JobToken, state: str().optional(), failure_reason: str().optional(), exit_code: int().optional(), checksum: str().optional(),
    output: z.object({ checksum: z.string().optional(), bytesize: z.number().int().optional() }).optional(),
  },
  responses: { 200: Raw, 202: Raw },
})

export const appendJobTrace = defineEndpoint({
  method: 'PATCH', path: '/jobs/:id/trace', summary: "Append to a job's log at the byte offset of Content-Range", auth: 'public',
  headers: ['job-token', 'content-range'], rawBody: true, params: JobId, input: { ...JobToken, debug_trace: bool().optional() },
  responses: { 202: null },
})

export const uploadJobArtifacts = defineEndpoint({
  method: 'POST', path: '/jobs/:id/artifacts', summary: "Upload a job's artifacts archive (multipart `file`)", auth: 'public', raw: true,
  headers: ['job-token'], uploadsToDisk: true, params: JobId,
  input: {
    ...JobToken, file: z.unknown(), metadata: z.unknown().optional(), expire_in: str().optional(),
    artifact_type: str().optional(), artifact_format: str().optional(),
  },
  responses: { 201: Raw },
})

export const downloadJobArtifactsForRunner = defineEndpoint({
  method: 'GET', path: '/jobs/:id/artifacts', summary: "Download a job's artifacts with a running job's token (dependencies)",
  auth: 'public', raw: true, headers: ['job-token'], params: JobId, input: { ...JobToken, direct_download: bool().optional() },
  responses: { 200: Raw },
})
