// Badges of projects and groups.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import * as badges from '../services/projects/index.js'
import { findVisibleGroup } from '../services/groups/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import type { BadgeRow } from '../store/badges.js'

const project = (ctx: RequestContext, id: string): badges.BadgeSource => ({ kind: 'project', project: findVisibleProject(ctx, id) })
const group = (ctx: RequestContext, id: string): badges.BadgeSource => ({ kind: 'group', group: findVisibleGroup(ctx, id) })

type Source = (ctx: RequestContext, id: string) => badges.BadgeSource
type Basic = { name: string | null; link_url: string; image_url: string }

async function present<T extends Basic>(ctx: RequestContext, source: badges.BadgeSource, b: T) {
  const values = await badges.placeholderValues(ctx, source)
  return { name: b.name, link_url: b.link_url, image_url: b.image_url, rendered_link_url: badges.render(b.link_url, values), rendered_image_url: badges.render(b.image_url, values) }
}

const presentBadge = async (ctx: RequestContext, source: badges.BadgeSource, b: BadgeRow) =>
  ({ ...(await present(ctx, source, b)), id: b.id, kind: b.project_id !== null ? 'project' as const : 'group' as const })

/** The same six handlers for both kinds of source. */
const handlersFor = (find: Source) => ({
  list: async (i: { id: string; name?: string }, ctx: RequestContext) => {
    const source = find(ctx, i.id)
    const { rows, total } = badges.listBadges(ctx, source, i.name)
    return { status: 200, body: await Promise.all(rows.map((b) => presentBadge(ctx, source, b))), total }
  },
  render: async (i: { id: string; link_url: string; image_url: string }, ctx: RequestContext) => {
    const source = find(ctx, i.id)
    return { status: 200, body: await present(ctx, source, badges.previewBadge(ctx, source, i)) }
  },
  get: async (i: { id: string; badge_id: number }, ctx: RequestContext) => {
    const source = find(ctx, i.id)
    return { status: 200, body: await presentBadge(ctx, source, badges.findBadge(ctx, source, i.badge_id)) }
  },
  add: async (i: { id: string } & badges.BadgeInput, ctx: RequestContext) => {
    const { id, ...input } = i
    const source = find(ctx, id)
    return { status: 201, body: await presentBadge(ctx, source, badges.addBadge(ctx, source, input)) }
  },
  edit: async (i: { id: string; badge_id: number } & Partial<badges.BadgeInput>, ctx: RequestContext) => {
    const { id, badge_id, ...input } = i
    const source = find(ctx, id)
    return { status: 200, body: await presentBadge(ctx, source, badges.editBadge(ctx, source, badge_id, input)) }
  },
  remove: (i: { id: string; badge_id: number }, ctx: RequestContext) => {
    badges.removeBadge(ctx, find(ctx, i.id), i.badge_id)
    return { status: 204 as const }
  },
})

const p = handlersFor(project)
const g = handlersFor(group)

export const badgeHandlers = {
  listProjectBadges: p.list, renderProjectBadge: p.render, getProjectBadge: p.get, addProjectBadge: p.add, editProjectBadge: p.edit, removeProjectBadge: p.remove,
  listGroupBadges: g.list, renderGroupBadge: g.render, getGroupBadge: g.get, addGroupBadge: g.add, editGroupBadge: g.edit, removeGroupBadge: g.remove,
} satisfies Handlers<typeof contract.badges>
