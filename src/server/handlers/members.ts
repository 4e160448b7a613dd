// Project and group members.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentMember } from '../present/groups.js'
import { findVisibleGroup } from '../services/groups/index.js'
import * as members from '../services/projects/index.js'
import { findVisibleProject } from '../services/projects/index.js'

const project = (ctx: RequestContext, id: string): members.Target => ({ kind: 'project', project: findVisibleProject(ctx, id) })
const group = (ctx: RequestContext, id: string): members.Target => ({ kind: 'group', group: findVisibleGroup(ctx, id) })

function handlersFor(resolve: (ctx: RequestContext, id: string) => members.Target) {
  return {
    list: (input: { id: string; query?: string; user_ids?: number[] }, ctx: RequestContext) => {
      const { rows, total } = members.listMembers(ctx, resolve(ctx, input.id), false, input)
      return { status: 200, body: rows.map((m) => presentMember(m, ctx)), total }
    },
    listAll: (input: { id: string; query?: string; user_ids?: number[] }, ctx: RequestContext) => {
      const { rows, total } = members.listMembers(ctx, resolve(ctx, input.id), true, input)
      return { status: 200, body: rows.map((m) => presentMember(m, ctx)), total }
    },
    get: (input: { id: string; user_id: number }, ctx: RequestContext) =>
      ({ status: 200, body: presentMember(members.getMember(ctx, resolve(ctx, input.id), input.user_id, false), ctx) }),
    getAll: (input: { id: string; user_id: number }, ctx: RequestContext) =>
      ({ status: 200, body: presentMember(members.getMember(ctx, resolve(ctx, input.id), input.user_id, true), ctx) }),
    add: (input: { id: string; user_id: number; access_level: number; expires_at?: string }, ctx: RequestContext) =>
      ({ status: 201, body: presentMember(members.addMember(ctx, resolve(ctx, input.id), input), ctx) }),
    edit: (input: { id: string; user_id: number; access_level: number; expires_at?: string }, ctx: RequestContext) =>
      ({ status: 200, body: presentMember(members.editMember(ctx, resolve(ctx, input.id), input.user_id, input), ctx) }),
    remove: (input: { id: string; user_id: number }, ctx: RequestContext) => {
      members.removeMember(ctx, resolve(ctx, input.id), input.user_id)
      return { status: 204 }
    },
  }
}

const p = handlersFor(project)
const g = handlersFor(group)

export const memberHandlers = {
  listProjectMembers: p.list,
  listAllProjectMembers: p.listAll,
  getProjectMember: p.get,
  getAllProjectMember: p.getAll,
  addProjectMember: p.add,
  editProjectMember: p.edit,
  removeProjectMember: p.remove,
  listGroupMembers: g.list,
  listAllGroupMembers: g.listAll,
  getGroupMember: g.get,
  getAllGroupMember: g.getAll,
  addGroupMember: g.add,
  editGroupMember: g.edit,
  removeGroupMember: g.remove,
} satisfies Handlers<typeof contract.members>
