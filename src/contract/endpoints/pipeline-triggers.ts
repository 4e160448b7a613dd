// Pipeline trigger tokens (lib/api/ci/triggers.rb): CRUD for Maintainers, and running a pipeline with a trigger
// token or a job token, which needs no other credentials.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Pipeline } from '../entities/pipelines.js'
import { UserBasic } from '../entities/users.js'
import { int, isoDate, ref, str } from '../params.js'

export const Trigger = z.object({
  id: z.number().int(),
  token: z.string(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  last_used: z.string().nullable(),
  expires_at: z.string().nullable(),
  owner: UserBasic.nullable(),
})

const Id = { id: ref() }
// `variables[KEY]=value` (form or query) or a JSON object; checked by the service to answer GitLab's own message.
const Variables = { variables: z.unknown().optional() }
const One = { id: ref(), trigger_id: int() }

export const listProjectTriggers = defineEndpoint({
  method: 'GET', path: '/projects/:id/triggers', summary: "List a project's pipeline trigger tokens", paginated: true,
  params: Id, responses: { 200: z.array(Trigger) },
})

export const getProjectTrigger = defineEndpoint({
  method: 'GET', path: '/projects/:id/triggers/:trigger_id', summary: 'Get a pipeline trigger token', params: One,
  responses: { 200: Trigger },
})

export const createProjectTrigger = defineEndpoint({
  method: 'POST', path: '/projects/:id/triggers', summary: 'Create a pipeline trigger token', params: Id,
  input: { description: str(), expires_at: isoDate().optional() }, responses: { 201: Trigger },
})

export const updateProjectTrigger = defineEndpoint({
  method: 'PUT', path: '/projects/:id/triggers/:trigger_id', summary: 'Update a pipeline trigger token', params: One,
  input: { description: str().optional() }, responses: { 200: Trigger },
})

export const deleteProjectTrigger = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/triggers/:trigger_id', summary: 'Delete a pipeline trigger token', params: One,
  responses: { 204: null },
})

export const triggerPipeline = defineEndpoint({
  method: 'POST', path: '/projects/:id/trigger/pipeline', summary: 'Run a pipeline with a trigger token or a job token',
  auth: 'public', params: Id,
  input: { token: str(), ref: str(1024), ...Variables },
  responses: { 201: Pipeline },
})

/** The webhook form: the ref in the path, the token (and variables) in the query. */
export const triggerPipelineOnRef = defineEndpoint({
  method: 'POST', path: '/projects/:id/ref/:ref/trigger/pipeline', summary: 'Run a pipeline of a ref with a trigger token (webhook URL)',
  auth: 'public', params: { id: ref(), ref: ref() }, input: { token: str(), ...Variables },
  responses: { 201: Pipeline },
})
