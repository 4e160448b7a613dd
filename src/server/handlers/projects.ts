// The Projects API.
import type { contract } from '../../contract/index.js'
import type { ProjectListFilters } from '../../contract/endpoints/projects.js'
import { notFound } from '../../core/errors.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentProject, presentProjectSimple } from '../present/projects.js'
import { presentUserBasic } from '../present/users.js'
import { findUserByIdOrUsername } from '../services/users/index.js'
import { forkProject, setArchived, setStarred } from '../services/projects/index.js'
import * as projects from '../services/projects/index.js'
import { projectLanguages } from '../services/repository/index.js'

/** A project as the services hand it out (handlers name no store types). */
type ProjectView = ReturnType<typeof projects.findVisibleProject>

type Filters = { [K in keyof typeof ProjectListFilters]?: import('zod').output<(typeof ProjectListFilters)[K]> } & {
  custom_attributes?: Record<string, string | number | boolean>
  repository_checksum_failed?: boolean
  wiki_checksum_failed?: boolean
}

function filters(input: Filters): projects.ListInput {
  return {
    archived: input.archived, visibility: input.visibility, search: input.search, searchNamespaces: input.search_namespaces,
    owned: input.owned, membership: input.membership, starred: input.starred, withIssuesEnabled: input.with_issues_enabled,
    withMergeRequestsEnabled: input.with_merge_requests_enabled, minAccessLevel: input.min_access_level,
    idAfter: input.id_after, idBefore: input.id_before, topics: input.topic,
    customAttributes: input.custom_attributes && Object.fromEntries(Object.entries(input.custom_attributes).map(([k, v]) => [k, String(v)])),
    // We run no repository checksums, so none has failed.
    none: input.repository_checksum_failed === true || input.wiki_checksum_failed === true,
    orderBy: input.order_by, sort: input.sort,
  }
}

/** Simple form for `simple=true` and for anonymous callers; full form otherwise. */
async function presentList(ctx: RequestContext, rows: ProjectView[], input: Filters) {
  if (input.simple || !ctx.user) return rows.map((p) => presentProjectSimple(p, ctx))
  const out = []
  for (const p of rows) out.push(presentProject(await projects.bundle(ctx, p, { statistics: input.statistics, customAttributes: input.with_custom_attributes }), ctx))
  return out
}

async function presentOne(ctx: RequestContext, p: ProjectView, opts: projects.BundleOptions = {}) {
  if (!ctx.user) return presentProjectSimple(p, ctx)
  return presentProject(await projects.bundle(ctx, p, opts), ctx)
}

async function list(ctx: RequestContext, input: Filters, extra: Partial<projects.ListInput> = {}) {
  const { rows, total } = projects.listProjects(ctx, { ...filters(input), ...extra })
  return { status: 200, body: await presentList(ctx, rows, input), total }
}

function userRef(ctx: RequestContext, ref: string) {
  const user = findUserByIdOrUsername(ctx.app, ref)
  if (!user) throw notFound('User')
  return user
}

export const projectHandlers = {
  listProjects: (input, ctx) => list(ctx, input),
  listUserProjects: (input, ctx) => list(ctx, input, { namespaceOwner: userRef(ctx, input.user_id).id }),
  listStarredProjects: (input, ctx) => list(ctx, input, { starredBy: userRef(ctx, input.user_id).id }),
  listForks: (input, ctx) => list(ctx, input, { forkedFrom: projects.findVisibleProject(ctx, input.id).id }),

  getProject: async (input, ctx) => {
    const p = projects.findVisibleProject(ctx, input.id)
    return { status: 200, body: await presentOne(ctx, p, { statistics: input.statistics, customAttributes: input.with_custom_attributes }) }
  },

  createProject: async (input, ctx) => ({ status: 201, body: await presentOne(ctx, await projects.createProject(ctx, input)) }),

  createProjectForUser: async (input, ctx) => {
    const owner = userRef(ctx, String(input.user_id))
    return { status: 201, body: await presentOne(ctx, await projects.createProject(ctx, input, owner.id)) }
  },

  editProject: async (input, ctx) => {
    const p = projects.findVisibleProject(ctx, input.id)
    return { status: 200, body: await presentOne(ctx, await projects.editProject(ctx, p, input)) }
  },

  deleteProject: async (input, ctx) => {
    await projects.deleteProject(ctx, projects.findVisibleProject(ctx, input.id))
    return { status: 202, body: { message: '202 Accepted' } }
  },

  forkProject: async (input, ctx) => {
    const fork = forkProject(ctx, projects.findVisibleProject(ctx, input.id), input)
    return { status: 201, body: await presentOne(ctx, fork) }
  },

  listProjectUsers: (input, ctx) => {
    const p = projects.findVisibleProject(ctx, input.id)
    const { rows, total } = projects.listUsersOf(ctx, p, { search: input.search, skip: input.skip_users })
    return { status: 200, body: rows.map((u) => presentUserBasic(u, ctx)), total }
  },

  starProject: async (input, ctx) => ({ status: 201, body: await presentOne(ctx, setStarred(ctx, projects.findVisibleProject(ctx, input.id), true)) }),
  unstarProject: async (input, ctx) => ({ status: 201, body: await presentOne(ctx, setStarred(ctx, projects.findVisibleProject(ctx, input.id), false)) }),

  listStarrers: (input, ctx) => {
    const p = projects.findVisibleProject(ctx, input.id)
    const { rows, total } = projects.listStarrersOf(ctx, p, input.search)
    return { status: 200, body: rows.map((u) => ({ starred_since: u.starred_since, user: presentUserBasic(u, ctx) })), total }
  },

  archiveProject: async (input, ctx) => ({ status: 201, body: await presentOne(ctx, setArchived(ctx, projects.findVisibleProject(ctx, input.id), true)) }),
  unarchiveProject: async (input, ctx) => ({ status: 201, body: await presentOne(ctx, setArchived(ctx, projects.findVisibleProject(ctx, input.id), false)) }),

  getProjectLanguages: async (input, ctx) => ({ status: 200, body: await projectLanguages(ctx, projects.findVisibleProject(ctx, input.id)) }),
} satisfies Handlers<typeof contract.projects>
