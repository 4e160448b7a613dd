// The events feed and users' last activity days.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentEvent, presentUserActivity } from '../present/events.js'
import { listFeed, userActivities, type EventFilters, type FeedSource } from '../services/users/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import { resolveUser } from '../services/users/index.js'

function feed(ctx: RequestContext, source: FeedSource, f: EventFilters) {
  const { views, total } = listFeed(ctx, source, { action: f.action, target_type: f.target_type, before: f.before, after: f.after, sort: f.sort })
  return { status: 200, body: views.map((v) => presentEvent(v, ctx)), total }
}

export const eventHandlers = {
  listEvents: (i, ctx) => feed(ctx, { kind: i.scope === 'all' ? 'all' : 'mine' }, i),
  listUserEvents: (i, ctx) => feed(ctx, { kind: 'user', user: resolveUser(ctx, i.id) }, i),
  listProjectEvents: (i, ctx) => feed(ctx, { kind: 'project', project: findVisibleProject(ctx, i.id) }, i),
  listUserActivities: (i, ctx) => {
    const { rows, total } = userActivities(ctx, i.from)
    return { status: 200, body: rows.map(presentUserActivity), total }
  },
} satisfies Handlers<typeof contract.events>
