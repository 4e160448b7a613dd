// Issues: rows, per-project iid counters, labels and assignees of issues, the filtered list query and batch lookups.
import type Database from 'better-sqlite3'
import { cachedRead, inIds, peekRead, readStatement, stmt, write, type Db } from './db.js'
import { byAssignee, clausesOf, isAny, isNone, issuableConditions, labelCondition, listOrder, listQuery, readableProjects, type IssuableFilters } from './issuable-lists.js'
import { addLabels, byIds, deleteNoteable, insertKindRow, setAssignees, updateNoteable } from './noteables.js'

// The discussion layer's helpers under the names the issue services use.
export {
  labelNamesOf, labelIdsOf, setLabels as setIssueLabels, addLabels as addIssueLabels, assigneeIdsOf, setAssignees as setIssueAssignees, votesOf,
  explicitSubscription, setSubscription, participantIds, insertUserAgentDetail, findUserAgentDetail, type UserAgentRow,
} from './noteables.js'

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
  /** A number changed with every change to what the issue's list form shows (migration 026). */
  list_version: number
}

export type NewIssue = Omit<IssueRow, 'id' | 'list_version' | 'user_notes_count' | 'moved_to_id' | 'closed_at' | 'closed_by_id' | 'time_estimate' | 'total_time_spent'> &
  Partial<Pick<IssueRow, 'closed_at' | 'closed_by_id' | 'time_estimate' | 'total_time_spent' | 'user_notes_count'>>
export type IssuePatch = Partial<Omit<IssueRow, 'id' | 'project_id' | 'iid' | 'author_id' | 'created_at' | 'list_version'>>

/**
 * The next iid of a kind in a project, from its counter row; call inside the insert's transaction. An explicit
 * iid (importers, admins) only raises the counter.
 */
export function allocateIid(db: Db, projectId: number, usage: string, explicit?: number): number {
  if (explicit !== undefined) {
    write(db, 'internal_ids', `INSERT INTO internal_ids (project_id, usage, last_value) VALUES (?, ?, ?)
      ON CONFLICT (project_id, usage) DO UPDATE SET last_value = MAX(last_value, excluded.last_value)`).run(projectId, usage, explicit)
    return explicit
  }
  return (write(db, 'internal_ids', `INSERT INTO internal_ids (project_id, usage, last_value) VALUES (?, ?, 1)
    ON CONFLICT (project_id, usage) DO UPDATE SET last_value = last_value + 1 RETURNING last_value`).get(projectId, usage) as { last_value: number }).last_value
}

/**
 * Inserts the issue with its labels and assignees and returns the stored row, defaults included, without reading it
 * back. Labels and assignees go in before the row: its insert trigger then counts the labels (migration 026), where each
 * one added after the row updated the row's list_version again (three more statements a label, triggers included).
 */
export const insertIssue = (db: Db, issue: NewIssue, relations: { labelIds?: readonly number[]; assigneeIds?: readonly number[] } = {}) =>
  insertKindRow<IssueRow>(db, 'Issue', issue, (id) => {
    if (relations.labelIds?.length) addLabels(db, id, [...relations.labelIds])
    if (relations.assigneeIds?.length) setAssignees(db, id, [...relations.assigneeIds])
  })

export const updateIssue = (db: Db, id: number, patch: IssuePatch) => updateNoteable(db, 'Issue', id, patch)

export const deleteIssueRow = deleteNoteable

export const findIssueByIid = (db: Db, projectId: number, iid: number) =>
  stmt(db, 'SELECT * FROM issues WHERE project_id = ? AND iid = ?').get(projectId, iid) as IssueRow | undefined

export const findIssueById = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM issues WHERE id = ?').get(id) as IssueRow | undefined

export const iidTaken = (db: Db, projectId: number, iid: number) =>
  stmt(db, 'SELECT 1 FROM issues WHERE project_id = ? AND iid = ?').get(projectId, iid) !== undefined

/** Open issues of a project, confidential ones only for callers who may read them all. */
export function countOpenIssues(db: Db, projectId: number, withConfidential: boolean): number {
  const sql = withConfidential
    ? "SELECT COALESCE(SUM(n), 0) AS n FROM issue_counts WHERE project_id = ? AND state = 'opened'"
    : "SELECT COUNT(*) AS n FROM issues WHERE project_id = ? AND state = 'opened' AND confidential = 0"
  return cachedRead(db, `open-issues:${projectId}:${withConfidential}`, withConfidential ? ['issue_counts'] : ['issues'], () => (stmt(db, sql).get(projectId) as { n: number }).n)
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
export interface IssueFilters extends IssuableFilters {
  /** On a single-project list: whether the viewer reads confidential issues (Reporter and up). */
  readsConfidential?: boolean
  state?: 'opened' | 'closed'
  confidential?: boolean
}

/** The groups above the project, whose labels its issues may carry besides its own. */
const PROJECT_GROUPS = `(WITH RECURSIVE up(id) AS (SELECT namespace_id FROM projects WHERE id = @project
  UNION ALL SELECT n.parent_id FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL) SELECT id FROM up)`
const PROJECT_LABELS = `(project_id = @project OR group_id IN ${PROJECT_GROUPS})`
const PROJECT_LABEL_SCOPE = ` AND (l.project_id = @project OR l.group_id IN ${PROJECT_GROUPS})`
const BY_ASSIGNEE = byAssignee('i')

/** Every table an issue list's conditions can read: visibility, labels, milestones, assignees, reactions. */
const LIST_TABLES = [
  'issues', 'noteable_labels', 'labels', 'noteable_assignees', 'milestones', 'award_emoji', 'projects', 'namespaces', 'project_members', 'group_members',
]

/** Counting 10,000 matching issues costs ~15 ms on every page; the count is remembered until a write to its tables. */
const cachedCount = (db: Db, sql: string, args: Record<string, unknown>): number =>
  cachedRead(db, `issue-count:${sql}\0${JSON.stringify(args)}`, LIST_TABLES, () => (stmt(db, sql).get(args) as { n: number }).n)

/**
 * The count of a list. A project's list filtered by a label is counted from that label's entries in its index, joined
 * to their issues (1,000 index entries and row lookups where the list's own plan scans all 10,000 of the project's
 * issues, ~3.5x slower). Where the name is both a project label's and an ancestor group's (or two groups'), an issue
 * may hold both, so issues are counted distinct then (a temp b-tree, ~1.7x slower), plainly otherwise: the same
 * number as the list's own WHERE gives.
 */
function countSql(f: IssueFilters, cte: string, where: string[], args: Record<string, unknown>): string {
  const first = f.projectId === undefined ? -1 : (f.labels ?? []).findIndex((name) => !isNone(name) && !isAny(name))
  if (first < 0 && where.includes(BY_ASSIGNEE)) {
    // Likewise one assignee's issues, from their entries in the assignees' index (1,400 of them where the list's own
    // plan probes the assignees of all 10,000 of the project's issues, ~3.5x slower). An issue lists a user once.
    const rest = where.filter((w) => w !== BY_ASSIGNEE).map((w) => ` AND ${w}`).join('')
    return `${cte}SELECT COUNT(*) AS n FROM noteable_assignees a0 CROSS JOIN issues i ON i.id = a0.noteable_id WHERE a0.user_id = @assignee${rest}`
  }
  if (first < 0) return `${cte}SELECT COUNT(*) AS n FROM issues i ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`
  const rest = where.filter((w) => w !== labelCondition('i', first, PROJECT_LABEL_SCOPE))
  // CROSS JOIN keeps the label's index as the outer loop whatever the planner would guess.
  const labels = `SELECT id FROM labels WHERE name = @label${first} AND ${PROJECT_LABELS}`
  const count = (what: string) => `SELECT ${what} FROM noteable_labels il0 CROSS JOIN issues i ON i.id = il0.noteable_id
    WHERE il0.label_id IN (${labels})${rest.map((w) => ` AND ${w}`).join('')}`
  return `${cte}SELECT CASE WHEN (SELECT COUNT(*) FROM (${labels})) > 1 THEN (${count('COUNT(DISTINCT i.id)')}) ELSE (${count('COUNT(*)')}) END AS n`
}

/**
 * What a list may set and still be counted from the kept counters: its project, state and labels, who asks, and the
 * page. Any other filter, including one added later, makes it count the long way.
 */
const KEPT_COUNT_FIELDS: ReadonlySet<string> = new Set<keyof IssueFilters>([
  'projectId', 'state', 'labels', 'viewer', 'admin', 'open', 'readsConfidential', 'orderBy', 'sort', 'limit', 'offset',
])

/**
 * A list's count from the counters the database keeps (migration 026), when the list is one project's, shows its
 * confidential issues, and filters by nothing but state and one label name that one label holds; undefined otherwise.
 */
function keptCount(db: Db, f: IssueFilters): number | undefined {
  if (f.projectId === undefined || !(f.admin || f.readsConfidential)) return undefined
  if (Object.entries(f).some(([k, v]) => v !== undefined && !KEPT_COUNT_FIELDS.has(k))) return undefined
  const labels = f.labels ?? []
  if (labels.length > 1 || labels.some((name) => isNone(name) || isAny(name))) return undefined
  const args: Record<string, unknown> = { project: f.projectId, state: f.state ?? null }
  const byState = 'AND (@state IS NULL OR state = @state)'
  if (!labels.length) {
    const sql = `SELECT COALESCE(SUM(n), 0) AS n FROM issue_counts WHERE project_id = @project ${byState}`
    return cachedRead(db, `issue-kept-count:${f.projectId}:${f.state}`, ['issue_counts'], () => (stmt(db, sql).get(args) as { n: number }).n)
  }
  args.label0 = labels[0]
  const held = `SELECT id FROM labels WHERE name = @label0 AND ${PROJECT_LABELS}`
  const ids = cachedRead(db, `issue-label-ids:${f.projectId}:${labels[0]}`, ['labels', 'projects', 'namespaces'],
    () => (stmt(db, held).all(args) as { id: number }[]).map((r) => r.id))
  // An issue may hold a project label and a group label of the same name: counted once, so counted the long way.
  if (ids.length !== 1) return ids.length ? undefined : 0
  args.label = ids[0]
  const sql = `SELECT COALESCE(SUM(n), 0) AS n FROM issue_label_counts WHERE label_id = @label AND project_id = @project ${byState}`
  return cachedRead(db, `issue-kept-label-count:${ids[0]}:${f.projectId}:${f.state}`, ['issue_label_counts'], () => (stmt(db, sql).get(args) as { n: number }).n)
}

/** An issue of a list page, with the list_version its remembered text is checked against. */
export interface IssueVersion { id: number; list_version: number }

/** A page of issues, and how many the whole list holds. */
export function listIssues(db: Db, f: IssueFilters): { rows: IssueRow[]; total: number } {
  const { items, total } = listIssueVersions(db, f)
  return { rows: issuesByIds(db, items.map((i) => i.id)), total }
}

/** A page of issues as ids and list versions, in the list's order, and how many the whole list holds. */
export function listIssueVersions(db: Db, f: IssueFilters): { items: IssueVersion[]; total: number } {
  const q = listQuery('i', f)
  const seeOwn = 'i.author_id = @viewer OR EXISTS (SELECT 1 FROM noteable_assignees ca WHERE ca.noteable_id = i.id AND ca.user_id = @viewer)'
  if (!f.admin) {
    if (f.projectId !== undefined) {
      if (!f.readsConfidential) q.where.push(`(i.confidential = 0 OR ${seeOwn})`)
    } else {
      readableProjects(q, 'i', f, 10)
      q.where.push(`(i.confidential = 0 OR ${seeOwn} OR i.project_id IN (SELECT project_id FROM lvl WHERE level >= 20))`)
    }
  }
  // A project's issues carry its own labels and its ancestor groups'.
  issuableConditions(db, q, 'i', f, f.projectId !== undefined ? PROJECT_LABEL_SCOPE : '')
  if (f.confidential !== undefined) { q.where.push('i.confidential = @confidential'); q.args.confidential = f.confidential ? 1 : 0 }
  const { where, args } = q
  const { cte, clause } = clausesOf(q)
  const total = keptCount(db, f) ?? cachedCount(db, countSql(f, cte, where, args), args)
  // The page's ids first, then their rows: skipping OFFSET entries of an index is cheaper when nothing but the id is
  // wanted from them (~25% at offset 5,000); the outer ORDER BY is the same total order, so the page is the same.
  const order = (dir: string) => listOrder('i', f, dir)
  // A page past the middle is found from the other end, in the opposite order, skipping total - end entries instead
  // of offset: `total` counts exactly what the WHERE matches, and the order is total, so these are the same rows.
  const end = Math.min(f.offset + f.limit, total)
  const fromEnd = f.offset > total / 2 && f.offset < total
  const inner = fromEnd ? order(f.sort === 'asc' ? 'desc' : 'asc') : order(f.sort)
  const page = stmt(db, `${cte}SELECT i.id, i.list_version FROM issues i WHERE i.id IN (SELECT i.id FROM issues i ${clause} ${inner} LIMIT @limit OFFSET @offset) ${order(f.sort)}`)
  const window = fromEnd ? { limit: end - f.offset, offset: total - end } : { limit: f.limit, offset: f.offset }
  return { items: page.all({ ...args, ...window }) as IssueVersion[], total }
}

/** Issues by id, in the order given (ids of no issue are left out). */
export function issuesByIds(db: Db, ids: number[]): IssueRow[] {
  if (!ids.length) return []
  const args: Record<string, unknown> = {}
  const byId = new Map(rowObjects<IssueRow>(readStatement(db, `SELECT i.* FROM issues i WHERE i.id ${inIds('id', ids, args)}`), args).map((r) => [r.id, r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

const columnNames = new WeakMap<Database.Statement, string[]>()

/**
 * A statement's rows as objects, as `all` returns them, built here from raw arrays: better-sqlite3 sets each column of
 * each row as a property from C++, which costs twice what reading 20 issue rows does. Only for statements no other
 * caller shares (raw mode stays on the cached statement).
 */
function rowObjects<T>(s: Database.Statement, args: Record<string, unknown>): T[] {
  let names = columnNames.get(s)
  if (!names) columnNames.set(s, (names = s.columns().map((c) => c.name)))
  const rows = s.raw(true).all(args) as unknown[][]
  return rows.map((r) => {
    const o: Record<string, unknown> = {}
    for (let c = 0; c < names.length; c++) o[names[c]] = r[c]
    return o as T
  })
}
