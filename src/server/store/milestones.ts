// Project milestones.
import { inIds, stmt, type Db } from './db.js'
import { likePattern } from './users.js'

export interface MilestoneRow {
  id: number
  project_id: number
  iid: number
  title: string
  description: string
  state: 'active' | 'closed'
  due_date: string | null
  start_date: string | null
  created_at: string
  updated_at: string
  closed_at: string | null
}

export function insertMilestone(db: Db, m: Omit<MilestoneRow, 'id' | 'state' | 'closed_at'>): number {
  return Number(stmt(db, `INSERT INTO milestones (project_id, iid, title, description, due_date, start_date, created_at, updated_at)
    VALUES (@project_id, @iid, @title, @description, @due_date, @start_date, @created_at, @updated_at)`).run(m).lastInsertRowid)
}

export function updateMilestone(db: Db, id: number, patch: Partial<Omit<MilestoneRow, 'id' | 'project_id' | 'iid' | 'created_at'>>) {
  const cols = Object.keys(patch)
  if (!cols.length) return
  stmt(db, `UPDATE milestones SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteMilestoneRow = (db: Db, id: number) => stmt(db, 'DELETE FROM milestones WHERE id = ?').run(id)

export const findMilestone = (db: Db, projectId: number, id: number) =>
  stmt(db, 'SELECT * FROM milestones WHERE project_id = ? AND id = ?').get(projectId, id) as MilestoneRow | undefined

export const findMilestoneByTitle = (db: Db, projectId: number, title: string) =>
  stmt(db, 'SELECT * FROM milestones WHERE project_id = ? AND title = ?').get(projectId, title) as MilestoneRow | undefined

export const milestonesByIds = (db: Db, ids: number[]) => {
  const unique = [...new Set(ids)]
  if (!unique.length) return new Map<number, MilestoneRow>()
  const args: Record<string, unknown> = {}
  const rows = stmt(db, `SELECT * FROM milestones WHERE id ${inIds('id', unique, args)}`).all(args) as MilestoneRow[]
  return new Map(rows.map((m) => [m.id, m]))
}

export function listMilestones(db: Db, projectId: number, f: { state?: string; iids?: number[]; title?: string; search?: string; limit: number; offset: number }) {
  const where = ['project_id = @project']
  const args: Record<string, unknown> = { project: projectId }
  if (f.state) { where.push('state = @state'); args.state = f.state }
  if (f.iids) where.push(`iid ${inIds('iid', f.iids, args)}`)
  if (f.title !== undefined) { where.push('title = @title'); args.title = f.title }
  if (f.search) { where.push("(title LIKE @q ESCAPE '\\' OR description LIKE @q ESCAPE '\\')"); args.q = likePattern(f.search) }
  const clause = where.join(' AND ')
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM milestones WHERE ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM milestones WHERE ${clause} ORDER BY due_date IS NULL, due_date, id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as MilestoneRow[]
  return { rows, total }
}
