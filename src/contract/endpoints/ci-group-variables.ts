// Group CI/CD variables (lib/api/group_variables.rb, Maintainers of the group) and instance ones
// (lib/api/admin/ci/variables.rb, administrators): the project variables' fields and rules.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { CiVariable } from '../entities/jobs.js'
import { ref, str, text } from '../params.js'
import { VariableFields, VariableFilter } from './ci-variables.js'

/** Instance variables have no environment scope (Ci::InstanceVariable does not answer to it). */
export const InstanceVariable = CiVariable.omit({ environment_scope: true })

const Id = { id: ref() }
const Keyed = { ...Id, key: str() }
const { environment_scope: _scope, ...InstanceFields } = VariableFields

export const listGroupVariables = defineEndpoint({
  method: 'GET', path: '/groups/:id/variables', summary: "List a group's CI/CD variables", paginated: true,
  params: Id, responses: { 200: z.array(CiVariable) },
})

export const getGroupVariable = defineEndpoint({
  method: 'GET', path: '/groups/:id/variables/:key', summary: 'Get a group CI/CD variable', params: Keyed, input: VariableFilter,
  responses: { 200: CiVariable },
})

export const createGroupVariable = defineEndpoint({
  method: 'POST', path: '/groups/:id/variables', summary: 'Create a group CI/CD variable', params: Id,
  input: { key: str(), value: text(), ...VariableFields }, responses: { 201: CiVariable },
})

export const updateGroupVariable = defineEndpoint({
  method: 'PUT', path: '/groups/:id/variables/:key', summary: 'Update a group CI/CD variable', params: Keyed,
  input: { value: text().optional(), ...VariableFields, ...VariableFilter }, responses: { 200: CiVariable },
})

export const deleteGroupVariable = defineEndpoint({
  method: 'DELETE', path: '/groups/:id/variables/:key', summary: 'Delete a group CI/CD variable', params: Keyed, input: VariableFilter,
  responses: { 204: null },
})

export const listInstanceVariables = defineEndpoint({
  method: 'GET', path: '/admin/ci/variables', summary: "List the instance's CI/CD variables", auth: 'admin', paginated: true,
  responses: { 200: z.array(InstanceVariable) },
})

export const getInstanceVariable = defineEndpoint({
  method: 'GET', path: '/admin/ci/variables/:key', summary: 'Get an instance CI/CD variable', auth: 'admin', params: { key: str() },
  responses: { 200: InstanceVariable },
})

export const createInstanceVariable = defineEndpoint({
  method: 'POST', path: '/admin/ci/variables', summary: 'Create an instance CI/CD variable', auth: 'admin',
  input: { key: str(), value: text(), ...InstanceFields }, responses: { 201: InstanceVariable },
})

export const updateInstanceVariable = defineEndpoint({
  method: 'PUT', path: '/admin/ci/variables/:key', summary: 'Update an instance CI/CD variable', auth: 'admin', params: { key: str() },
  input: { value: text().optional(), ...InstanceFields }, responses: { 200: InstanceVariable },
})

export const deleteInstanceVariable = defineEndpoint({
  method: 'DELETE', path: '/admin/ci/variables/:key', summary: 'Delete an instance CI/CD variable', auth: 'admin', params: { key: str() },
  responses: { 204: null },
})
