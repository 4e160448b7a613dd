// Project administration of issue 15: housekeeping, transfer, a project's groups.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { namespaceWebUrl } from '../present/groups.js'
import { presentProject } from '../present/projects.js'
import { housekeepNow, projectGroups, transferProject } from '../services/projects/index.js'
import { bundle, findVisibleProject } from '../services/projects/index.js'

export const projectAdminHandlers = {
  // Grape answers the POST with 201 and the service's nil: the body `null`.
  startHousekeeping: async (input, ctx) => {
    await housekeepNow(ctx, findVisibleProject(ctx, input.id))
    return { status: 201, body: null }
  },

  transferProject: async (input, ctx) => {
    const moved = transferProject(ctx, findVisibleProject(ctx, input.id), input.namespace)
    return { status: 200, body: presentProject(await bundle(ctx, moved), ctx) }
  },

  listProjectGroups: (input, ctx) => {
    const groups = projectGroups(ctx, findVisibleProject(ctx, input.id), input.search, input.skip_groups)
    const page = groups.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit)
    return {
      status: 200, total: groups.length,
      body: page.map((g) => ({ id: g.id, web_url: namespaceWebUrl(g, ctx), name: g.name, avatar_url: null, full_name: g.full_name, full_path: g.full_path })),
    }
  },
} satisfies Handlers<typeof contract.projectAdmin>
