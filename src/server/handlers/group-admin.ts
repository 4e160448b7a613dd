// Groups beyond create and read: subgroups, transfer, delete.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentGroup } from '../present/groups.js'
import * as admin from '../services/groups/index.js'
import * as groups from '../services/groups/index.js'
import { groupProjects } from './groups.js'

type SubgroupInput = Parameters<Handlers<typeof contract.groupAdmin>['listSubgroups']>[0]

/** Subgroups and descendant groups take the same filters; only which groups lie below differs. */
function subgroups(ctx: RequestContext, input: SubgroupInput, below: (parent: ReturnType<typeof groups.findVisibleGroup>) => { parentId?: number; ancestorPath?: string }) {
  const parent = groups.findVisibleGroup(ctx, input.id)
  const { rows, total } = groups.listGroups(ctx, {
    ...below(parent), search: input.search, owned: input.owned, minAccessLevel: input.min_access_level,
    allAvailable: input.all_available, skip: input.skip_groups, orderBy: input.order_by ?? 'name', sort: input.sort ?? 'asc',
  })
  return { status: 200, body: rows.map((g) => presentGroup(g, ctx)), total }
}

export const groupAdminHandlers = {
  listSubgroups: (input, ctx) => subgroups(ctx, input, (parent) => ({ parentId: parent.id })),
  listDescendantGroups: (input, ctx) => subgroups(ctx, input, (parent) => ({ ancestorPath: parent.full_path })),

  transferGroup: async (input, ctx) => {
    const group = await admin.transferGroup(ctx, input.id, input.group_id)
    return { status: 201, body: { ...presentGroup(group, ctx), projects: groupProjects(ctx, group.id), shared_projects: [] } }
  },

  deleteGroup: async (input, ctx) => {
    await admin.deleteGroup(ctx, input.id)
    return { status: 202, body: { message: '202 Accepted' } }
  },
} satisfies Handlers<typeof contract.groupAdmin>
