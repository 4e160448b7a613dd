// Project and group members: access levels 10/20/30/40/50, direct and inherited.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Member } from '../entities/groups.js'
import { dateOnly, int, list, ref, str } from '../params.js'

export const Level = z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z.union([z.literal(10), z.literal(20), z.literal(30), z.literal(40), z.literal(50)], { error: 'does not have a valid value' }))
const ListInput = { query: str().optional(), user_ids: list(int()).optional() }
const AddInput = { user_id: int(), access_level: Level, expires_at: dateOnly().optional() }
const EditInput = { access_level: Level, expires_at: dateOnly().optional() }

// Every member read needs a signed-in caller, public projects' and groups' too: GitLab's Members API authenticates first.
function memberEndpoints(kind: 'projects' | 'groups', noun: string) {
  const base = `/${kind}/:id/members`
  return {
    list: defineEndpoint({
      method: 'GET', path: base, summary: `List direct members of a ${noun}`, paginated: true,
      params: { id: ref() }, input: ListInput, responses: { 200: z.array(Member) },
    }),
    listAll: defineEndpoint({
      method: 'GET', path: `${base}/all`, summary: `List members of a ${noun}, including inherited ones`, paginated: true,
      params: { id: ref() }, input: ListInput, responses: { 200: z.array(Member) },
    }),
    get: defineEndpoint({
      method: 'GET', path: `${base}/:user_id`, summary: `Get a direct member of a ${noun}`,
      params: { id: ref(), user_id: int() }, responses: { 200: Member },
    }),
    getAll: defineEndpoint({
      method: 'GET', path: `${base}/all/:user_id`, summary: `Get a member of a ${noun}, including inherited ones`,
      params: { id: ref(), user_id: int() }, responses: { 200: Member },
    }),
    add: defineEndpoint({
      method: 'POST', path: base, summary: `Add a member to a ${noun}`,
      params: { id: ref() }, input: AddInput, responses: { 201: Member },
    }),
    edit: defineEndpoint({
      method: 'PUT', path: `${base}/:user_id`, summary: `Change a member's access level in a ${noun}`,
      params: { id: ref(), user_id: int() }, input: EditInput, responses: { 200: Member },
    }),
    remove: defineEndpoint({
      method: 'DELETE', path: `${base}/:user_id`, summary: `Remove a member from a ${noun}`,
      params: { id: ref(), user_id: int() }, responses: { 204: null },
    }),
  }
}

const project = memberEndpoints('projects', 'project')
const group = memberEndpoints('groups', 'group')

export const listProjectMembers = project.list
export const listAllProjectMembers = project.listAll
export const getProjectMember = project.get
export const getAllProjectMember = project.getAll
export const addProjectMember = project.add
export const editProjectMember = project.edit
export const removeProjectMember = project.remove

export const listGroupMembers = group.list
export const listAllGroupMembers = group.listAll
export const getGroupMember = group.get
export const getAllGroupMember = group.getAll
export const addGroupMember = group.add
export const editGroupMember = group.edit
export const removeGroupMember = group.remove
