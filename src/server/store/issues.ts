// Issues: rows, per-project iid counters, labels and assignees of issues, the filtered list query and batch lookups.
import { cachedRead, inIds, peekRead, stmt, type Db } from './db.js'
import { likePattern } from './users.js'
import { REACHABLE_GROUPS_CTE } from './namespaces.js'
import { cachedQuery } from './writes.js'

export interface IssueRow {
  id: number
  project_id: number
  iid: number
  title: string
  description: string | null
  state: 'opened' | 'closed'
  author_id: number
  milestone_id: number | null
  confidential: number
  discussion_locked: number
  due_date: string | null
  time_estimate: number
  total_time_spent: number
  user_notes_count: number
  created_at: string
  updated_at: string
  closed_at: string | null
  closed_by_id: number | null
  moved_to_id: number | null
}

export type NewIssue = Omit<IssueRow, 'id' | 'user_notes_count' | 'moved_to_id' | 'closed_at' | 'closed_by_id' | 'time_estimate' | 'total_time_spent'> &
  Partial<Pick<IssueRow, 'closed_at' | 'closed_by_id' | 'time_estimate' | 'total_time_spent' | 'user_notes_count'>>
export type IssuePatch = Partial<Omit<IssueRow, 'id' | 'project_id' | 'iid' | 'author_id' | 'created_at'>>

/**
 * The next iid of a kind in a project, from its counter row; call inside the insert's transaction. An explicit
 * iid (importers, admins) only raises the counter.
 */
export function allocateIid(db: Db, projectId: number, usage: string, explicit?: number): number {
  if (explicit !== undefined) {
    stmt(db, `INSERT INTO internal_ids (project_id, usage, last_value) VALUES (?, ?, ?)
      ON CONFLICT (project_id, usage) DO UPDATE SET last_value = MAX(last_value, excluded.last_value)`).run(projectId, usage, explicit)
    return explicit
  }
  return (stmt(db, `INSERT INTO internal_ids (project_id, usage, last_value) VALUES (?, ?, 1)
    ON CONFLICT (project_id, usage) DO UPDATE SET last_value = last_value + 1 RETURNING last_value`).get(projectId, usage) as { last_value: number }).last_value
}

/** Inserts the issue and returns the stored row, defaults included, without reading it back. */
export function insertIssue(db: Db, issue: NewIssue): IssueRow {
  const cols = Object.keys(issue)
  return stmt(db, `INSERT INTO issues (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')}) RETURNING *`).get(issue) as IssueRow
}

export function updateIssue(db: Db, id: number, patch: IssuePatch) {
  const cols = Object.keys(patch)
  if (!cols.length) return
  stmt(db, `UPDATE issues SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteIssueRow = (db: Db, id: number) => stmt(db, 'DELETE FROM issues WHERE id = ?').run(id)

export const findIssueByIid = (db: Db, projectId: number, iid: number) =>
  stmt(db, 'SELECT * FROM issues WHERE project_id = ? AND iid = ?').get(projectId, iid) as IssueRow | undefined

export const findIssueById = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM issues WHERE id = ?').get(id) as IssueRow | undefined

export const iidTaken = (db: Db, projectId: number, iid: number) =>
  stmt(db, 'SELECT 1 FROM issues WHERE project_id = ? AND iid = ?').get(projectId, iid) !== undefined

/** Open issues of a project, confidential ones only for callers who may read them all. */
export function countOpenIssues(db: Db, projectId: number, withConfidential: boolean): number {
  const sql = withConfidential
    ? "SELECT COUNT(*) AS n FROM issues WHERE project_id = ? AND state = 'opened'"
    : "SELECT COUNT(*) AS n FROM issues WHERE project_id = ? AND state = 'opened' AND confidential = 0"
  return cachedRead(db, `open-issues:${projectId}:${withConfidential}`, ['issues'], () => (stmt(db, sql).get(projectId) as { n: number }).n)
}

/** Rows of `sql … IN (ids)`: a page of 100 issues is one query per table, from a handful of statements for every page size. */
function byIds<T>(db: Db, sqlFor: (inList: string) => string, ids: number[]): T[] {
  if (!ids.length) return []
  const args: Record<string, unknown> = {}
  return stmt(db, sqlFor(inIds('id', ids, args))).all(args) as T[]
}

export function labelNamesOf(db: Db, issueIds: number[]): Map<number, string[]> {
  const out = new Map<number, string[]>()
  for (const r of byIds<{ issue_id: number; name: string }>(db, (m) =>
    `SELECT il.issue_id, l.name FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id ${m}`, issueIds)) {
    let list = out.get(r.issue_id)
    if (!list) out.set(r.issue_id, (list = []))
    list.push(r.name)
  }
  for (const list of out.values()) list.sort()
  return out
}

export function labelIdsOf(db: Db, issueId: number): number[] {
  return (stmt(db, 'SELECT label_id FROM issue_labels WHERE issue_id = ? ORDER BY label_id').all(issueId) as { label_id: number }[]).map((r) => r.label_id)
}

export function setIssueLabels(db: Db, issueId: number, labelIds: number[]) {
  stmt(db, 'DELETE FROM issue_labels WHERE issue_id = ?').run(issueId)
  addIssueLabels(db, issueId, labelIds)
}

/** Labels of an issue that has none yet (a new one). */
export function addIssueLabels(db: Db, issueId: number, labelIds: number[]) {
  for (const id of new Set(labelIds)) stmt(db, 'INSERT INTO issue_labels (issue_id, label_id) VALUES (?, ?)').run(issueId, id)
}

export function assigneeIdsOf(db: Db, issueIds: number[]): Map<number, number[]> {
  const out = new Map<number, number[]>()
  for (const r of byIds<{ issue_id: number; user_id: number }>(db, (m) =>
    `SELECT issue_id, user_id FROM issue_assignees WHERE issue_id ${m} ORDER BY issue_id, position`, issueIds)) {
    let list = out.get(r.issue_id)
    if (!list) out.set(r.issue_id, (list = []))
    list.push(r.user_id)
  }
  return out
}

export function setIssueAssignees(db: Db, issueId: number, userIds: number[]) {
  stmt(db, 'DELETE FROM issue_assignees WHERE issue_id = ?').run(issueId)
  ;[...new Set(userIds)].forEach((u, i) => stmt(db, 'INSERT INTO issue_assignees (issue_id, user_id, position) VALUES (?, ?, ?)').run(issueId, u, i))
}

export function votesOf(db: Db, issueIds: number[]): Map<number, { up: number; down: number }> {
  const out = new Map<number, { up: number; down: number }>()
  for (const r of byIds<{ issue_id: number; up: number; down: number }>(db, (m) =>
    `SELECT issue_id, SUM(name = 'thumbsup') AS up, SUM(name = 'thumbsdown') AS down FROM award_emoji
      WHERE issue_id ${m} AND name IN ('thumbsup', 'thumbsdown') GROUP BY issue_id`, issueIds)) out.set(r.issue_id, { up: r.up, down: r.down })
  return out
}

type UserRow = import('./users.js').UserRow

/** Users by id, remembered until the users table changes: a page of issues names the same few people over and over. */
export function usersByIds(db: Db, ids: number[]): Map<number, UserRow> {
  const out = new Map<number, UserRow>()
  const missing: number[] = []
  for (const id of new Set(ids)) {
    const known = peekRead<UserRow>(db, `user:${id}`, USER_TABLES)
    if (known) out.set(id, known)
    else missing.push(id)
  }
  for (const u of byIds<UserRow>(db, (m) => `SELECT * FROM users WHERE id ${m}`, missing)) {
    out.set(u.id, cachedRead(db, `user:${u.id}`, USER_TABLES, () => u))
  }
  return out
}
const USER_TABLES = ['users'] as const

/** The subscription row of a user, or undefined when the default (participants are subscribed) applies. */
export function explicitSubscription(db: Db, issueId: number, userId: number): boolean | undefined {
  const row = stmt(db, 'SELECT subscribed FROM issue_subscriptions WHERE issue_id = ? AND user_id = ?').get(issueId, userId) as { subscribed: number } | undefined
  return row === undefined ? undefined : row.subscribed === 1
}

export function setSubscription(db: Db, issueId: number, userId: number, on: boolean) {
  stmt(db, `INSERT INTO issue_subscriptions (issue_id, user_id, subscribed) VALUES (?, ?, ?)
    ON CONFLICT (issue_id, user_id) DO UPDATE SET subscribed = excluded.subscribed`).run(issueId, userId, on ? 1 : 0)
}

/** Author, assignees, then authors of user notes in the order they first commented. */
export function participantIds(db: Db, issue: Pick<IssueRow, 'id' | 'author_id'>): number[] {
  const assignees = assigneeIdsOf(db, [issue.id]).get(issue.id) ?? []
  const commenters = (stmt(db, 'SELECT author_id FROM notes WHERE issue_id = ? AND system = 0 ORDER BY created_at, id').all(issue.id) as { author_id: number }[])
    .map((r) => r.author_id)
  return [...new Set([issue.author_id, ...assignees, ...commenters])]
}

export interface UserAgentRow { user_agent: string; ip_address: string; submitted: number }

export const insertUserAgentDetail = (db: Db, issueId: number, userAgent: string, ip: string) =>
  stmt(db, 'INSERT INTO user_agent_details (issue_id, user_agent, ip_address) VALUES (?, ?, ?)').run(issueId, userAgent, ip)

export const findUserAgentDetail = (db: Db, issueId: number) =>
  stmt(db, 'SELECT user_agent, ip_address, submitted FROM user_agent_details WHERE issue_id = ?').get(issueId) as UserAgentRow | undefined

export interface IssueFilters {
  /** One project (its visibility already checked), a group's projects, or every project the viewer may read. */
  projectId?: number
  groupId?: number
  viewer: number
  admin: boolean
  /** On a single-project list: whether the viewer reads confidential issues (Reporter and up). */
  readsConfidential?: boolean
  state?: 'opened' | 'closed'
  labels?: string[]
  milestone?: string
  milestoneId?: number
  iids?: number[]
  authorId?: number
  assignedTo?: number
  assignee?: number | 'none' | 'any'
  reaction?: string
  search?: string
  confidential?: boolean
  createdAfter?: string
  createdBefore?: string
  updatedAfter?: string
  updatedBefore?: string
  orderBy: 'created_at' | 'updated_at'
  sort: 'asc' | 'desc'
  limit: number
  offset: number
}

const NONE = new Set(['none', 'no label', 'no milestone', 'no+label', 'no+milestone'])
const isNone = (v: string) => NONE.has(v.toLowerCase())
const isAny = (v: string) => v.toLowerCase() === 'any'

function labelClauses(f: IssueFilters, where: string[], args: Record<string, unknown>) {
  const scope = f.projectId !== undefined ? ' AND l.project_id = @project' : ''
  f.labels?.forEach((name, i) => {
    if (isNone(name)) where.push('NOT EXISTS (SELECT 1 FROM issue_labels x WHERE x.issue_id = i.id)')
    else if (isAny(name)) where.push('EXISTS (SELECT 1 FROM issue_labels x WHERE x.issue_id = i.id)')
    else {
      where.push(`i.id IN (SELECT il.issue_id FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE l.name = @label${i}${scope})`)
      args[`label${i}`] = name
    }
  })
}

/** Projects the viewer may read and those where they read confidential issues, as in policy.ts. */
const ACCESS_CTE = `WITH RECURSIVE ${REACHABLE_GROUPS_CTE}, acc(project_id, level) AS (
    SELECT project_id, access_level FROM project_members WHERE user_id = @viewer
    UNION ALL SELECT p2.id, reach.level FROM projects p2 JOIN reach ON p2.namespace_id = reach.ns_id),
  lvl AS (SELECT project_id, MAX(level) AS level FROM acc GROUP BY project_id) `

const GROUP_CTE = `WITH RECURSIVE down(id) AS (SELECT @group UNION ALL SELECT n.id FROM namespaces n JOIN down ON n.parent_id = down.id) `

/** Every table an issue list's conditions can read: visibility, labels, milestones, assignees, reactions. */
const LIST_TABLES = [
  'issues', 'issue_labels', 'labels', 'issue_assignees', 'milestones', 'award_emoji', 'projects', 'namespaces', 'project_members', 'group_members',
]

/**
 * Counting 10,000 matching issues costs ~15 ms on every page; the count is remembered until a write to what its plan
 * reads (often an index that an edit of a title leaves alone), or, when the plan cannot say, to one of its tables.
 */
const cachedCount = (db: Db, sql: string, args: Record<string, unknown>): number =>
  cachedQuery(db, `issue-count:${sql}\0${JSON.stringify(args)}`, sql, LIST_TABLES, () => (stmt(db, sql).get(args) as { n: number }).n)

export function listIssues(db: Db, f: IssueFilters): { rows: IssueRow[]; total: number } {
  const where: string[] = []
  const args: Record<string, unknown> = { viewer: f.viewer }
  const ctes: string[] = []
  if (f.projectId !== undefined) { where.push('i.project_id = @project'); args.project = f.projectId }
  if (f.groupId !== undefined) {
    ctes.push(GROUP_CTE)
    where.push('i.project_id IN (SELECT p.id FROM projects p WHERE p.namespace_id IN (SELECT id FROM down))')
    args.group = f.groupId
  }
  const seeOwn = 'i.author_id = @viewer OR EXISTS (SELECT 1 FROM issue_assignees ca WHERE ca.issue_id = i.id AND ca.user_id = @viewer)'
  if (!f.admin) {
    if (f.projectId !== undefined) {
      if (!f.readsConfidential) where.push(`(i.confidential = 0 OR ${seeOwn})`)
    } else {
      ctes.push(ACCESS_CTE)
      where.push(`i.project_id IN (SELECT p.id FROM projects p LEFT JOIN lvl ON lvl.project_id = p.id
        WHERE p.visibility IN ('public', 'internal') OR lvl.level >= 10)`)
      where.push(`(i.confidential = 0 OR ${seeOwn} OR i.project_id IN (SELECT project_id FROM lvl WHERE level >= 20))`)
    }
  }
  if (f.state) { where.push('i.state = @state'); args.state = f.state }
  labelClauses(f, where, args)
  if (f.milestoneId !== undefined) { where.push('i.milestone_id = @milestoneId'); args.milestoneId = f.milestoneId }
  if (f.milestone !== undefined) {
    if (isNone(f.milestone)) where.push('i.milestone_id IS NULL')
    else if (isAny(f.milestone)) where.push('i.milestone_id IS NOT NULL')
    else { where.push('i.milestone_id IN (SELECT id FROM milestones WHERE title = @milestone)'); args.milestone = f.milestone }
  }
  if (f.iids) where.push(`i.iid ${inIds('iid', f.iids, args)}`)
  if (f.authorId !== undefined) { where.push('i.author_id = @author'); args.author = f.authorId }
  if (f.assignedTo !== undefined) { where.push('EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = @assignedTo)'); args.assignedTo = f.assignedTo }
  if (f.assignee === 'none') where.push('NOT EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id)')
  else if (f.assignee === 'any') where.push('EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id)')
  else if (f.assignee !== undefined) { where.push('EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = @assignee)'); args.assignee = f.assignee }
  if (f.reaction !== undefined) {
    if (isNone(f.reaction)) where.push('NOT EXISTS (SELECT 1 FROM award_emoji e WHERE e.issue_id = i.id AND e.user_id = @viewer)')
    else if (isAny(f.reaction)) where.push('EXISTS (SELECT 1 FROM award_emoji e WHERE e.issue_id = i.id AND e.user_id = @viewer)')
    else { where.push('EXISTS (SELECT 1 FROM award_emoji e WHERE e.issue_id = i.id AND e.user_id = @viewer AND e.name = @reaction)'); args.reaction = f.reaction }
  }
  if (f.search) {
    where.push("(i.title LIKE @search ESCAPE '\\' OR i.description LIKE @search ESCAPE '\\')")
    args.search = likePattern(f.search)
  }
  if (f.confidential !== undefined) { where.push('i.confidential = @confidential'); args.confidential = f.confidential ? 1 : 0 }
  const range: [keyof IssueFilters, string, string][] = [
    ['createdAfter', 'i.created_at >=', 'ca'], ['createdBefore', 'i.created_at <=', 'cb'],
    ['updatedAfter', 'i.updated_at >=', 'ua'], ['updatedBefore', 'i.updated_at <=', 'ub'],
  ]
  for (const [key, cond, name] of range) if (f[key] !== undefined) { where.push(`${cond} @${name}`); args[name] = f[key] }

  const cte = ctes.length ? ctes.join('').replace(/\) WITH RECURSIVE /g, '), ') : ''
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : ''
  const total = cachedCount(db, `${cte}SELECT COUNT(*) AS n FROM issues i ${clause}`, args)
  const rows = stmt(db, `${cte}SELECT i.* FROM issues i ${clause} ORDER BY i.${f.orderBy} ${f.sort}, i.id ${f.sort} LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as IssueRow[]
  return { rows, total }
}
