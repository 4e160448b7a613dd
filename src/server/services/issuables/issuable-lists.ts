// What issue and merge request lists and presenters share: the list filters both APIs take, read into the store's
// IssuableFilters, and the relations and people a page of either kind links to (issues.ts and merge-requests.ts add theirs).
import { humanDuration } from '../../../core/durations.js'
import { unauthorized } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { isAdmin, openVisibilities } from '../../policy.js'
import type { IssuableBundle, TimeTracking } from '../../present/issuables.js'
import type { IssuableFilters, UserFilter } from '../../store/issuable-lists.js'
import { assigneeIdsOf, labelNamesOf, usersByIds, votesOf } from '../../store/issues.js'
import { milestonesByIds } from '../../store/milestones.js'
import type { ProjectView } from '../../store/projects.js'
import { projectPaths } from './discussion.js'

/** The list filters the Issues and Merge Requests APIs both take. */
export interface IssuableListInput<State extends string> {
  state?: State | 'all'
  labels?: string[]
  milestone?: string
  iids?: number[]
  scope?: 'created_by_me' | 'assigned_to_me' | 'all' | 'created-by-me' | 'assigned-to-me'
  author_id?: number
  assignee_id?: UserFilter
  my_reaction_emoji?: string
  order_by?: 'created_at' | 'updated_at'
  sort?: 'asc' | 'desc'
  search?: string
  created_after?: string
  created_before?: string
  updated_after?: string
  updated_before?: string
}

/** What a list covers: one project, a group's projects, one milestone's; none of them, every project. */
export interface ListWhere { project?: ProjectView; groupId?: number; milestoneId?: number }

const isoOf = (s: string | undefined) => (s === undefined ? undefined : new Date(s).toISOString())

/**
 * The store's filters of a list. An anonymous caller's `created_by_me` or `assigned_to_me` matches nothing, as GitLab's
 * IssuableFinder#by_scope (`items.none`): they list as viewer -1, whom no row names.
 */
export function issuableFilters<State extends string>(ctx: RequestContext, input: IssuableListInput<State>, where: ListWhere): IssuableFilters & { state?: State } {
  const viewer = ctx.user?.id ?? -1
  const scoped = where.project !== undefined || where.groupId !== undefined || where.milestoneId !== undefined
  const scope = (input.scope ?? (scoped ? 'all' : 'created_by_me')).replace(/-/g, '_')
  // GitLab's `authenticate! unless params[:scope] == 'all'`: anonymous callers list the instance's public ones only.
  if (!ctx.user && !scoped && scope !== 'all') throw unauthorized()
  return {
    projectId: where.project?.id,
    groupId: where.groupId,
    milestoneId: where.milestoneId,
    viewer,
    admin: isAdmin(ctx),
    open: openVisibilities(ctx),
    state: input.state === 'all' ? undefined : input.state,
    labels: input.labels?.map((l) => l.trim()).filter(Boolean),
    milestone: input.milestone,
    iids: input.iids,
    authorId: scope === 'created_by_me' ? viewer : input.author_id,
    assignedTo: scope === 'assigned_to_me' ? viewer : undefined,
    assignee: input.assignee_id,
    reaction: input.my_reaction_emoji,
    search: input.search,
    createdAfter: isoOf(input.created_after),
    createdBefore: isoOf(input.created_before),
    updatedAfter: isoOf(input.updated_after),
    updatedBefore: isoOf(input.updated_before),
    orderBy: input.order_by ?? 'created_at',
    sort: input.sort ?? 'desc',
    limit: ctx.page.limit,
    offset: ctx.page.offset,
  }
}

export const timeTracking = (r: { time_estimate: number; total_time_spent: number }): TimeTracking => ({
  estimate: r.time_estimate, spent: r.total_time_spent, humanEstimate: humanDuration(r.time_estimate), humanSpent: humanDuration(r.total_time_spent),
})

export const today = (ctx: RequestContext) => nowIso(ctx).slice(0, 10)

/** What a page of issuables links to by issuable: label names, assignee ids and votes, one query per table. */
export interface IssuableRelations {
  labels: Map<number, string[]>
  assignees: Map<number, number[]>
  votes: Map<number, { up: number; down: number }>
}

export function issuableRelations(ctx: RequestContext, ids: number[]): IssuableRelations {
  const db = ctx.app.db
  return { labels: labelNamesOf(db, ids), assignees: assigneeIdsOf(db, ids), votes: votesOf(db, ids) }
}

interface IssuableRow {
  id: number; project_id: number; author_id: number; closed_by_id: number | null; milestone_id: number | null
  time_estimate: number; total_time_spent: number
}

/**
 * The common part of each row's bundle, with the users a kind names besides author, closer and assignees read in the
 * same query (`users` has them for the kind's own fields).
 */
export function issuableBundles<R extends IssuableRow>(ctx: RequestContext, rows: R[], rel: IssuableRelations, moreUsers: (r: R) => (number | null)[] = () => []) {
  const db = ctx.app.db
  const userIds = rows.flatMap((r) => [r.author_id, r.closed_by_id, ...(rel.assignees.get(r.id) ?? []), ...moreUsers(r)])
  const users = usersByIds(db, userIds.filter((id): id is number => id !== null))
  const userOf = (id: number | null) => (id === null ? null : users.get(id) ?? null)
  const milestones = milestonesByIds(db, rows.flatMap((r) => (r.milestone_id !== null ? [r.milestone_id] : [])))
  const pathOf = projectPaths(ctx)
  const day = today(ctx)
  const bundles = rows.map((r): IssuableBundle<R> => {
    const vote = rel.votes.get(r.id)
    return {
      row: r,
      projectPath: pathOf(r.project_id),
      author: users.get(r.author_id)!,
      assignees: (rel.assignees.get(r.id) ?? []).flatMap((id) => users.get(id) ?? []),
      closedBy: userOf(r.closed_by_id),
      labels: rel.labels.get(r.id) ?? [],
      milestone: r.milestone_id !== null ? milestones.get(r.milestone_id) ?? null : null,
      upvotes: vote?.up ?? 0,
      downvotes: vote?.down ?? 0,
      timeTracking: timeTracking(r),
      today: day,
    }
  })
  return { bundles, userOf }
}
