// Project CI/CD variables (GitLab's lib/api/ci/variables.rb): Maintainers list, read, create, update and delete them.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { CiVariable } from '../entities/jobs.js'
import { bool, oneOf, ref, str, text } from '../params.js'

const Id = { id: ref() }
const Keyed = { ...Id, key: str() }
// `filter[environment_scope]=production` picks one of several variables sharing a key (group variables too).
export const VariableFilter = { filter: z.object({ environment_scope: str().optional() }, { error: 'is invalid' }).optional() }
export const VariableFields = {
  variable_type: oneOf(['env_var', 'file']).optional(),
  protected: bool().optional(),
  masked: bool().optional(),
  raw: bool().optional(),
  environment_scope: str().optional(),
  description: str().nullable().optional(),
}

export const listProjectVariables = defineEndpoint({
  method: 'GET', path: '/projects/:id/variables', summary: "List a project's CI/CD variables", paginated: true,
  params: Id, responses: { 200: z.array(CiVariable) },
})

export const getProjectVariable = defineEndpoint({
  method: 'GET', path: '/projects/:id/variables/:key', summary: 'Get a CI/CD variable', params: Keyed, input: VariableFilter,
  responses: { 200: CiVariable },
})

export const createProjectVariable = defineEndpoint({
  method: 'POST', path: '/projects/:id/variables', summary: 'Create a CI/CD variable', params: Id,
  input: { key: str(), value: text(), ...VariableFields }, responses: { 201: CiVariable },
})

export const updateProjectVariable = defineEndpoint({
  method: 'PUT', path: '/projects/:id/variables/:key', summary: 'Update a CI/CD variable', params: Keyed,
  input: { value: text().optional(), ...VariableFields, ...VariableFilter }, responses: { 200: CiVariable },
})

export const deleteProjectVariable = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/variables/:key', summary: 'Delete a CI/CD variable', params: Keyed, input: VariableFilter,
  responses: { 204: null },
})
