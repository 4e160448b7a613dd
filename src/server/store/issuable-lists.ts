// What issue and merge request lists share: the filters, their SQL over a kind's table, the access CTEs, the page order.
// issues.ts and merge-requests.ts add their kind's own conditions (confidentiality, branches, reviewers, drafts).
import { cachedRead, inIds, stmt, type Db } from './db.js'
import { openIn, REACHABLE_GROUPS_CTE, type OpenLevels } from './namespaces.js'
import { likePattern } from './users.js'

export type UserFilter = number | 'none' | 'any'

export interface IssuableFilters {
  /** One project (its visibility already checked), a group's projects, or every project the viewer may read. */
  projectId?: number
  groupId?: number
  viewer: number
  admin: boolean
  /** Visibility levels the viewer reads without membership (policy.ts openVisibilities). */
  open: OpenLevels
  labels?: string[]
  milestone?: string
  /** One milestone by id (a milestone's issues and merge requests), whatever its title. */
  milestoneId?: number
  iids?: number[]
  authorId?: number
  assignedTo?: number
  assignee?: UserFilter
  reaction?: string
  search?: string
  createdAfter?: string
  createdBefore?: string
  updatedAfter?: string
  updatedBefore?: string
  orderBy: 'created_at' | 'updated_at'
  sort: 'asc' | 'desc'
  limit: number
  offset: number
}

/** A list query being built: its conditions, their named arguments and the CTEs they read. */
export interface ListQuery { where: string[]; args: Record<string, unknown>; ctes: string[] }

// `No+Label` is how some clients spell GitLab's `No Label` when they encode the space themselves.
const NONE = new Set(['none', 'no label', 'no milestone', 'no+label', 'no+milestone'])
export const isNone = (v: string) => NONE.has(v.toLowerCase())
export const isAny = (v: string) => v.toLowerCase() === 'any'

/** Projects the viewer may read and those where they read confidential issues, as in policy.ts. */
export const ACCESS_CTE = `WITH RECURSIVE ${REACHABLE_GROUPS_CTE}, acc(project_id, level) AS (
    SELECT project_id, access_level FROM project_members WHERE user_id = @viewer
    UNION ALL SELECT p2.id, reach.level FROM projects p2 JOIN reach ON p2.namespace_id = reach.ns_id),
  lvl AS (SELECT project_id, MAX(level) AS level FROM acc GROUP BY project_id) `

const GROUP_CTE = `WITH RECURSIVE down(id) AS (SELECT @group UNION ALL SELECT n.id FROM namespaces n JOIN down ON n.parent_id = down.id) `

/** The projects of the list's reach the viewer may read: open ones, and those where their level is at least `level`. */
export function readableProjects(q: ListQuery, a: string, f: IssuableFilters, level: number) {
  q.ctes.push(ACCESS_CTE)
  q.where.push(`${a}.project_id IN (SELECT p.id FROM projects p LEFT JOIN lvl ON lvl.project_id = p.id
    WHERE ${openIn('p.visibility', f.open)} OR lvl.level >= ${level})`)
}

/** Issuables of `a` assigned to @assignee: the condition the issue count recognises to count from the assignees' index. */
export const byAssignee = (a: string) => `EXISTS (SELECT 1 FROM noteable_assignees a WHERE a.noteable_id = ${a}.id AND a.user_id = @assignee)`

/** `none`, `any` or one user of a table that lists users by issuable. */
export function userCondition(q: ListQuery, a: string, table: string, idCol: string, key: string, value: UserFilter) {
  const exists = `EXISTS (SELECT 1 FROM ${table} x WHERE x.${idCol} = ${a}.id`
  if (value === 'none') q.where.push(`NOT ${exists})`)
  else if (value === 'any') q.where.push(`${exists})`)
  else { q.where.push(`${exists} AND x.user_id = @${key})`); q.args[key] = value }
}

/** A label name's condition; `scope` narrows the labels that may carry it (a project's own and its groups'). */
export const labelCondition = (a: string, i: number, scope = '') =>
  `${a}.id IN (SELECT il.noteable_id FROM noteable_labels il JOIN labels l ON l.id = il.label_id WHERE l.name = @label${i}${scope})`

/** A new list query over alias `a`: the project or group it covers. */
export function listQuery(a: string, f: IssuableFilters): ListQuery {
  const q: ListQuery = { where: [], args: { viewer: f.viewer }, ctes: [] }
  if (f.projectId !== undefined) { q.where.push(`${a}.project_id = @project`); q.args.project = f.projectId }
  if (f.groupId !== undefined) {
    q.ctes.push(GROUP_CTE)
    q.where.push(`${a}.project_id IN (SELECT p.id FROM projects p WHERE p.namespace_id IN (SELECT id FROM down))`)
    q.args.group = f.groupId
  }
  return q
}

/** The conditions of the filters both kinds take, on alias `a`; `labelScope` as for labelCondition. */
export function issuableConditions(db: Db, q: ListQuery, a: string, f: IssuableFilters & { state?: string }, labelScope = '') {
  const { where, args } = q
  if (f.state) { where.push(`${a}.state = @state`); args.state = f.state }
  f.labels?.forEach((name, i) => {
    if (isNone(name)) where.push(`NOT EXISTS (SELECT 1 FROM noteable_labels x WHERE x.noteable_id = ${a}.id)`)
    else if (isAny(name)) where.push(`EXISTS (SELECT 1 FROM noteable_labels x WHERE x.noteable_id = ${a}.id)`)
    else { where.push(labelCondition(a, i, labelScope)); args[`label${i}`] = name }
  })
  if (f.milestoneId !== undefined) { where.push(`${a}.milestone_id = @milestoneId`); args.milestoneId = f.milestoneId }
  if (f.milestone !== undefined) {
    if (isNone(f.milestone)) where.push(`${a}.milestone_id IS NULL`)
    else if (isAny(f.milestone)) where.push(`${a}.milestone_id IS NOT NULL`)
    else where.push(`${a}.milestone_id ${inIds('milestone', milestoneIdsTitled(db, f.milestone), args)}`)
  }
  if (f.iids) where.push(`${a}.iid ${inIds('iid', f.iids, args)}`)
  if (f.authorId !== undefined) { where.push(`${a}.author_id = @author`); args.author = f.authorId }
  if (f.assignedTo !== undefined) userCondition(q, a, 'noteable_assignees', 'noteable_id', 'assignedTo', f.assignedTo)
  if (typeof f.assignee === 'number') { where.push(byAssignee(a)); args.assignee = f.assignee }
  else if (f.assignee !== undefined) userCondition(q, a, 'noteable_assignees', 'noteable_id', 'assignee', f.assignee)
  if (f.reaction !== undefined) {
    const exists = `EXISTS (SELECT 1 FROM award_emoji e WHERE e.noteable_id = ${a}.id AND e.user_id = @viewer`
    if (isNone(f.reaction)) where.push(`NOT ${exists})`)
    else if (isAny(f.reaction)) where.push(`${exists})`)
    else { where.push(`${exists} AND e.name = @reaction)`); args.reaction = f.reaction }
  }
  if (f.search) {
    where.push(`(${a}.title LIKE @search ESCAPE '\\' OR ${a}.description LIKE @search ESCAPE '\\')`)
    args.search = likePattern(f.search)
  }
  const range = [['createdAfter', 'created_at >=', 'ca'], ['createdBefore', 'created_at <=', 'cb'], ['updatedAfter', 'updated_at >=', 'ua'], ['updatedBefore', 'updated_at <=', 'ub']] as const
  for (const [key, cond, name] of range) if (f[key] !== undefined) { where.push(`${a}.${cond} @${name}`); args[name] = f[key] }
}

/** The query's CTEs as one WITH RECURSIVE, and its WHERE clause. */
export function clausesOf(q: ListQuery): { cte: string; clause: string } {
  return {
    cte: q.ctes.length ? q.ctes.join('').replace(/\) WITH RECURSIVE /g, '), ') : '',
    clause: q.where.length ? `WHERE ${q.where.join(' AND ')}` : '',
  }
}

/** The list's total order: the asked column, then the id, both in `dir`. */
export const listOrder = (a: string, f: Pick<IssuableFilters, 'orderBy'>, dir: string) => `ORDER BY ${a}.${f.orderBy} ${dir}, ${a}.id ${dir}`

/**
 * The milestones of a title, as a list of ids bound into the list query: with the ids in its text, SQLite walks a
 * project's issues of that milestone in the order of the index by project, milestone and creation (migration 040),
 * where `IN (SELECT …)` made it walk all of the project's issues and read each row (0.2-0.4 ms a page against 1.6-2.7 ms
 * on the mixed bench's 10,000 issues).
 */
const milestoneIdsTitled = (db: Db, title: string): number[] => cachedRead(db, `milestone-ids:${title}`, ['milestones'],
  () => (stmt(db, 'SELECT id FROM milestones WHERE title = ?').all(title) as { id: number }[]).map((r) => r.id))
