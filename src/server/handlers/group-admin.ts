// Groups beyond create and read: subgroups, transfer, delete.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentGroup } from '../present/groups.js'
import * as admin from '../services/group-admin.js'
import * as groups from '../services/groups.js'
import { groupProjects } from './groups.js'

export const groupAdminHandlers = {
  listSubgroups: (input, ctx) => {
    const parent = groups.findVisibleGroup(ctx, input.id)
    const { rows, total } = groups.listGroups(ctx, {
      parentId: parent.id, search: input.search, owned: input.owned, minAccessLevel: input.min_access_level,
      allAvailable: input.all_available, skip: input.skip_groups, orderBy: input.order_by ?? 'name', sort: input.sort ?? 'asc',
    })
    return { status: 200, body: rows.map((g) => presentGroup(g, ctx)), total }
  },

  transferGroup: async (input, ctx) => {
    const group = await admin.transferGroup(ctx, input.id, input.group_id)
    return { status: 201, body: { ...presentGroup(group, ctx), projects: groupProjects(ctx, group.id), shared_projects: [] } }
  },

  deleteGroup: async (input, ctx) => {
    await admin.deleteGroup(ctx, input.id)
    return { status: 202, body: { message: '202 Accepted' } }
  },
} satisfies Handlers<typeof contract.groupAdmin>
