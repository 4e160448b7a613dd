// The Runners API (lib/api/ci/runners.rb, lib/api/users.rb's POST /user/runners): create, list, change and remove the
// runners that take jobs; what a runner itself calls is in runner-protocol.ts.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Job } from '../entities/jobs.js'
import { Runner, RunnerDetails, RunnerRegistration, TokenResult } from '../entities/runners.js'
import { bool, int, list, oneOf, ref, str, text } from '../params.js'

const RunnerId = { id: int() }
const ProjectId = { id: ref() }

export const RunnerSettings = {
  description: str().optional(),
  maintenance_note: text().optional(),
  paused: bool().optional(),
  locked: bool().optional(),
  run_untagged: bool().optional(),
  tag_list: list(str()).optional(),
  access_level: oneOf(['not_protected', 'ref_protected'] as const).optional(),
  maximum_timeout: int().optional(),
}

const Filters = {
  scope: oneOf(['active', 'paused', 'online', 'offline', 'specific', 'shared', 'instance_type', 'group_type', 'project_type'] as const).optional(),
  type: oneOf(['instance_type', 'group_type', 'project_type'] as const).optional(),
  status: oneOf(['active', 'paused', 'online', 'offline', 'stale', 'never_contacted'] as const).optional(),
  paused: bool().optional(),
  tag_list: list(str()).optional(),
}

export const createUserRunner = defineEndpoint({
  method: 'POST', path: '/user/runners', summary: 'Create a runner linked to the current user (answers its glrt- token once)',
  input: {
    runner_type: oneOf(['instance_type', 'group_type', 'project_type'] as const),
    group_id: int().optional(), project_id: int().optional(), ...RunnerSettings,
  },
  responses: { 201: RunnerRegistration },
})

export const listOwnedRunners = defineEndpoint({
  method: 'GET', path: '/runners', summary: 'List the runners of projects the user maintains', paginated: true,
  input: Filters, responses: { 200: z.array(Runner) },
})

export const listAllRunners = defineEndpoint({
  method: 'GET', path: '/runners/all', summary: 'List every runner of the instance (administrators)', auth: 'admin', paginated: true,
  input: Filters, responses: { 200: z.array(Runner) },
})

export const getRunner = defineEndpoint({
  method: 'GET', path: '/runners/:id', summary: "Get a runner's details", params: RunnerId, responses: { 200: RunnerDetails },
})

export const updateRunner = defineEndpoint({
  method: 'PUT', path: '/runners/:id', summary: "Change a runner's details", params: RunnerId,
  input: { ...RunnerSettings, active: bool().optional() }, responses: { 200: RunnerDetails },
})

export const deleteRunner = defineEndpoint({
  method: 'DELETE', path: '/runners/:id', summary: 'Remove a runner', params: RunnerId, responses: { 204: null },
})

export const listRunnerJobs = defineEndpoint({
  method: 'GET', path: '/runners/:id/jobs', summary: 'List the jobs a runner took, newest first', paginated: true, params: RunnerId,
  input: { status: oneOf(['running', 'success', 'failed', 'canceled'] as const).optional() },
  responses: { 200: z.array(Job) },
})

export const resetRunnerAuthenticationToken = defineEndpoint({
  method: 'POST', path: '/runners/:id/reset_authentication_token', summary: "Reset a runner's authentication token",
  params: RunnerId, responses: { 201: TokenResult },
})

export const resetInstanceRegistrationToken = defineEndpoint({
  method: 'POST', path: '/runners/reset_registration_token', summary: "Reset the instance's runner registration token (administrators)",
  auth: 'admin', responses: { 201: TokenResult },
})

export const listProjectRunners = defineEndpoint({
  method: 'GET', path: '/projects/:id/runners', summary: 'List the runners a project can use', paginated: true, params: ProjectId,
  input: Filters, responses: { 200: z.array(Runner) },
})

export const enableProjectRunner = defineEndpoint({
  method: 'POST', path: '/projects/:id/runners', summary: 'Let a project runner take jobs of one more project', params: ProjectId,
  input: { runner_id: int() }, responses: { 201: Runner },
})

export const disableProjectRunner = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/runners/:runner_id', summary: 'Stop a project runner taking jobs of a project',
  params: { ...ProjectId, runner_id: int() }, responses: { 204: null },
})

export const resetProjectRegistrationToken = defineEndpoint({
  method: 'POST', path: '/projects/:id/runners/reset_registration_token', summary: "Reset a project's runner registration token",
  params: ProjectId, responses: { 201: TokenResult },
})
