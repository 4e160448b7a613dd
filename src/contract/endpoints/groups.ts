// Groups and namespaces (compat-notes §2).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Group, GroupDetail, Namespace } from '../entities/groups.js'
import { bool, int, list, oneOf, ref, str, text } from '../params.js'

const VisibilityParam = oneOf(['private', 'internal', 'public'])

export const listGroups = defineEndpoint({
  method: 'GET', path: '/groups', summary: 'List groups visible to the caller', auth: 'optional', paginated: true,
  input: {
    search: str().optional(), owned: bool().optional(), min_access_level: int().optional(),
    all_available: bool().optional(), top_level_only: bool().optional(), skip_groups: list(int()).optional(),
    order_by: oneOf(['name', 'path', 'id']).optional(), sort: oneOf(['asc', 'desc']).optional(),
    visibility: VisibilityParam.optional(),
  },
  responses: { 200: z.array(Group) },
})

export const getGroup = defineEndpoint({
  method: 'GET', path: '/groups/:id', summary: 'Get a group with its projects', auth: 'optional',
  params: { id: ref() }, input: { with_projects: bool().optional() }, responses: { 200: GroupDetail },
})

export const createGroup = defineEndpoint({
  method: 'POST', path: '/groups', summary: 'Create a group (or a subgroup with parent_id)',
  input: {
    name: str(), path: str(), description: text().optional(), visibility: VisibilityParam.optional(),
    parent_id: int().optional(), request_access_enabled: bool().optional(), lfs_enabled: bool().optional(),
    default_branch: str().optional(),
  },
  responses: { 201: Group },
})

export const listNamespaces = defineEndpoint({
  method: 'GET', path: '/namespaces', summary: 'List namespaces the caller may use', paginated: true,
  input: { search: str().optional(), owned_only: bool().optional() },
  responses: { 200: z.array(Namespace) },
})

export const namespaceExists = defineEndpoint({
  method: 'GET', path: '/namespaces/:id/exists', summary: 'Whether a namespace path is taken (under parent_id, else at the top level), with a free one suggested',
  params: { id: str(255) }, input: { parent_id: int().optional() },
  responses: { 200: z.object({ exists: z.boolean(), suggests: z.array(z.string()) }) },
})

export const getNamespace = defineEndpoint({
  method: 'GET', path: '/namespaces/:id', summary: 'Get a namespace by id or path',
  params: { id: ref() }, responses: { 200: Namespace },
})
