// Groups and namespaces.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentGroup, presentNamespace } from '../present/groups.js'
import { presentProjectSimple } from '../present/projects.js'
import * as groups from '../services/groups/index.js'
import { listProjects } from '../services/projects/index.js'

export const groupHandlers = {
  listGroups: (input, ctx) => {
    const { rows, total } = groups.listGroups(ctx, {
      search: input.search, owned: input.owned, minAccessLevel: input.min_access_level, allAvailable: input.all_available,
      topLevelOnly: input.top_level_only, skip: input.skip_groups, visibility: input.visibility,
      orderBy: input.order_by ?? 'name', sort: input.sort ?? 'asc',
    })
    return { status: 200, body: rows.map((g) => presentGroup(g, ctx)), total }
  },

  getGroup: (input, ctx) => {
    const group = groups.findVisibleGroup(ctx, input.id)
    const projects = input.with_projects === false ? [] : groupProjects(ctx, group.id)
    return { status: 200, body: { ...presentGroup(group, ctx), projects, shared_projects: [] } }
  },

  createGroup: (input, ctx) => ({ status: 201, body: presentGroup(groups.createGroup(ctx, input), ctx) }),

  listNamespaces: (input, ctx) => {
    const { rows, total } = groups.listNamespaces(ctx, { search: input.search, ownedOnly: input.owned_only })
    const owners = groups.namespaceOwners(ctx, rows)
    return { status: 200, body: rows.map((n) => presentNamespace(n, ctx, n.owner_id === null ? undefined : owners.get(n.owner_id))), total }
  },

  getNamespace: (input, ctx) => {
    const ns = groups.findNamespace(ctx, input.id)
    return { status: 200, body: presentNamespace(ns, ctx, ns.owner_id === null ? undefined : groups.namespaceOwners(ctx, [ns]).get(ns.owner_id)) }
  },
  namespaceExists: (input, ctx) => ({ status: 200, body: groups.namespaceExists(ctx, input.id, input.parent_id) }),
} satisfies Handlers<typeof contract.groups>

/** GitLab embeds the group's visible projects (first 100) in the group read. */
export function groupProjects(ctx: Parameters<typeof listProjects>[0], groupId: number) {
  const { rows } = listProjects({ ...ctx, page: { page: 1, perPage: 100, limit: 100, offset: 0 } }, { inNamespace: groupId, orderBy: 'name', sort: 'asc' })
  return rows.map((p) => presentProjectSimple(p, ctx))
}
