// Project and group milestones; an issuable of a project may take its project's or an ancestor group's milestone.
import { inIds, stmt, write, type Db } from './db.js'
import { scopeClause, type OwnerScope } from './owner-scope.js'
import { likePattern } from './users.js'

export interface MilestoneRow {
  id: number
  /** Exactly one of project_id and group_id is set (a CHECK in migration 023). */
  project_id: number | null
  group_id: number | null
  iid: number
  title: string
  description: string
  state: 'active' | 'closed'
  due_date: string | null
  start_date: string | null
  created_at: string
  updated_at: string
  closed_at: string | null
  /** The group's full path, for a group milestone's web_url; null for a project milestone. */
  group_path: string | null
}

const VIEW = 'SELECT m.*, n.full_path AS group_path FROM milestones m LEFT JOIN namespaces n ON n.id = m.group_id'

export type NewMilestone = Omit<MilestoneRow, 'id' | 'state' | 'closed_at' | 'group_path' | 'project_id' | 'group_id'> &
  ({ project_id: number; group_id?: null } | { group_id: number; project_id?: null }) & Partial<Pick<MilestoneRow, 'state' | 'closed_at'>>

export function insertMilestone(db: Db, m: NewMilestone): number {
  return Number(write(db, 'milestones', `INSERT INTO milestones (project_id, group_id, iid, title, description, state, due_date, start_date, created_at, updated_at, closed_at)
    VALUES (@project_id, @group_id, @iid, @title, @description, @state, @due_date, @start_date, @created_at, @updated_at, @closed_at)`)
    .run({ project_id: null, group_id: null, state: 'active', closed_at: null, ...m }).lastInsertRowid)
}

/** The next iid of a group's sequence, counted as a project's are in internal_ids. */
export const allocateGroupIid = (db: Db, groupId: number, usage: string): number =>
  (write(db, 'group_internal_ids', `INSERT INTO group_internal_ids (group_id, usage, last_value) VALUES (?, ?, 1)
    ON CONFLICT (group_id, usage) DO UPDATE SET last_value = last_value + 1 RETURNING last_value`).get(groupId, usage) as { last_value: number }).last_value

export function updateMilestone(db: Db, id: number, patch: Partial<Omit<MilestoneRow, 'id' | 'project_id' | 'group_id' | 'group_path' | 'iid' | 'created_at'>>) {
  const cols = Object.keys(patch)
  if (!cols.length) return
  write(db, 'milestones', `UPDATE milestones SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteMilestoneRow = (db: Db, id: number) => write(db, 'milestones', 'DELETE FROM milestones WHERE id = ?').run(id)

export const findMilestone = (db: Db, projectId: number, id: number) =>
  stmt(db, `${VIEW} WHERE m.project_id = ? AND m.id = ?`).get(projectId, id) as MilestoneRow | undefined

export function findMilestoneInScope(db: Db, s: OwnerScope, id: number): MilestoneRow | undefined {
  const args: Record<string, unknown> = { id }
  return stmt(db, `${VIEW} WHERE m.id = @id AND ${scopeClause(s, args, 'm.')}`).get(args) as MilestoneRow | undefined
}

/** The milestone of the scope with this title (titles are unique per project and per group). */
export function findMilestoneTitled(db: Db, s: OwnerScope, title: string): MilestoneRow | undefined {
  const args: Record<string, unknown> = { title }
  return stmt(db, `${VIEW} WHERE m.title = @title AND ${scopeClause(s, args, 'm.')}`).get(args) as MilestoneRow | undefined
}

export const milestonesByIds = (db: Db, ids: number[]) => {
  const unique = [...new Set(ids)]
  if (!unique.length) return new Map<number, MilestoneRow>()
  const args: Record<string, unknown> = {}
  const rows = stmt(db, `${VIEW} WHERE m.id ${inIds('id', unique, args)}`).all(args) as MilestoneRow[]
  return new Map(rows.map((m) => [m.id, m]))
}

export interface MilestoneFilters { state?: string; iids?: number[]; title?: string; search?: string; limit: number; offset: number }

/** `scope` may be a bare project id: that project's own milestones. */
export function listMilestones(db: Db, scope: OwnerScope | number, f: MilestoneFilters) {
  const s = typeof scope === 'number' ? { projectIds: [scope], groupIds: [] } : scope
  const args: Record<string, unknown> = {}
  const where = [scopeClause(s, args, 'm.')]
  if (f.state) { where.push('m.state = @state'); args.state = f.state }
  if (f.iids) where.push(`m.iid ${inIds('iid', f.iids, args)}`)
  if (f.title !== undefined) { where.push('m.title = @title'); args.title = f.title }
  if (f.search) { where.push("(m.title LIKE @q ESCAPE '\\' OR m.description LIKE @q ESCAPE '\\')"); args.q = likePattern(f.search) }
  const clause = where.join(' AND ')
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM milestones m WHERE ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `${VIEW} WHERE ${clause} ORDER BY m.due_date IS NULL, m.due_date, m.id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as MilestoneRow[]
  return { rows, total }
}

/** Ids of the milestones titled `title` in these projects (the ones a promotion merges). */
export function milestoneIdsTitled(db: Db, projectIds: number[], title: string): number[] {
  if (!projectIds.length) return []
  const args: Record<string, unknown> = { title }
  return (stmt(db, `SELECT id FROM milestones WHERE title = @title AND project_id ${inIds('projects', projectIds, args)}`).all(args) as { id: number }[])
    .map((r) => r.id)
}

/** Promotion's merge (Milestones::PromoteService): the projects' issues and merge requests move to `toId`, the old milestones go. */
export function mergeMilestonesInto(db: Db, fromIds: number[], toId: number) {
  if (!fromIds.length) return
  const args: Record<string, unknown> = { to: toId }
  const from = inIds('from', fromIds, args)
  write(db, 'issues', `UPDATE issues SET milestone_id = @to WHERE milestone_id ${from}`).run(args)
  write(db, 'merge_requests', `UPDATE merge_requests SET milestone_id = @to WHERE milestone_id ${from}`).run(args)
  write(db, 'milestones', `DELETE FROM milestones WHERE id ${from}`).run(args)
}
