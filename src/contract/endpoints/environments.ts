// The Environments API (GitLab's lib/api/environments.rb): list, read, create, update, delete stopped ones, stop
// (running the on_stop job), and stop the stale ones. Reporters read a private project's; Developers write.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Environment } from '../entities/environments.js'
import { ENVIRONMENT_TIERS } from '../fixed-values.js'
import { bool, int, isoDate, oneOf, ref, str } from '../params.js'

const Id = { id: ref() }
const OneEnvironment = { id: ref(), environment_id: int() }
export const ENVIRONMENT_STATES = ['available', 'stopping', 'stopped'] as const

export const listEnvironments = defineEndpoint({
  method: 'GET', path: '/projects/:id/environments', summary: 'List environments', paginated: true, jobToken: true,
  params: Id, input: { name: str().optional(), search: str().optional(), states: oneOf(ENVIRONMENT_STATES).optional() },
  responses: { 200: z.array(Environment) },
})

export const getEnvironment = defineEndpoint({
  method: 'GET', path: '/projects/:id/environments/:environment_id', summary: 'Get a specific environment, with its last deployment',
  jobToken: true, params: OneEnvironment, responses: { 200: Environment },
})

export const createEnvironment = defineEndpoint({
  method: 'POST', path: '/projects/:id/environments', summary: 'Create a new environment', jobToken: true,
  params: Id, input: { name: str(), external_url: str().optional(), tier: oneOf(ENVIRONMENT_TIERS).optional(), slug: z.unknown().optional() },
  responses: { 201: Environment },
})

export const updateEnvironment = defineEndpoint({
  method: 'PUT', path: '/projects/:id/environments/:environment_id', summary: 'Update an environment (its name cannot change)',
  jobToken: true, params: OneEnvironment,
  input: { external_url: str().nullable().optional(), tier: oneOf(ENVIRONMENT_TIERS).optional(), slug: z.unknown().optional() },
  responses: { 200: Environment },
})

export const deleteEnvironment = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/environments/:environment_id', summary: 'Delete a stopped environment',
  jobToken: true, params: OneEnvironment, responses: { 204: null },
})

export const stopEnvironment = defineEndpoint({
  method: 'POST', path: '/projects/:id/environments/:environment_id/stop', summary: 'Stop an environment, running its on_stop job unless forced',
  jobToken: true, params: OneEnvironment, input: { force: bool().optional() }, responses: { 200: Environment },
})

export const stopStaleEnvironments = defineEndpoint({
  method: 'POST', path: '/projects/:id/environments/stop_stale', summary: 'Stop environments last modified or deployed to before a date',
  jobToken: true, params: Id, input: { before: isoDate() }, responses: { 200: z.object({ message: z.string() }) },
})
