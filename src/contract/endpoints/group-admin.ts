// Groups beyond create and read (lib/api/groups.rb): subgroups, transfer, delete.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Group, GroupDetail } from '../entities/groups.js'
import { bool, int, list, oneOf, ref, str } from '../params.js'

export const listSubgroups = defineEndpoint({
  method: 'GET', path: '/groups/:id/subgroups', summary: "List a group's direct subgroups visible to the caller", auth: 'optional',
  paginated: true, params: { id: ref() },
  input: {
    search: str().optional(), owned: bool().optional(), min_access_level: int().optional(), all_available: bool().optional(),
    skip_groups: list(int()).optional(), order_by: oneOf(['name', 'path', 'id']).optional(), sort: oneOf(['asc', 'desc']).optional(),
    statistics: bool().optional(),
  },
  responses: { 200: z.array(Group) },
})

export const listDescendantGroups = defineEndpoint({
  method: 'GET', path: '/groups/:id/descendant_groups', summary: "List a group's subgroups at every depth visible to the caller", auth: 'optional',
  paginated: true, params: { id: ref() }, input: listSubgroups.input, responses: { 200: z.array(Group) },
})

export const transferGroup = defineEndpoint({
  method: 'POST', path: '/groups/:id/transfer', summary: 'Move a group under another group, or to the top level without group_id',
  params: { id: ref() }, input: { group_id: int().optional() }, responses: { 201: GroupDetail },
})

export const deleteGroup = defineEndpoint({
  method: 'DELETE', path: '/groups/:id', summary: 'Delete a group with its subgroups, projects and repositories (Owner)',
  params: { id: ref() }, responses: { 202: z.object({ message: z.string() }) },
})
