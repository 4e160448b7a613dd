// Project labels and their issue counts.
import { cachedRead, stmt, type Db } from './db.js'
import { likePattern } from './users.js'

export interface LabelRow {
  id: number
  project_id: number
  name: string
  color: string
  description: string | null
  priority: number | null
  created_at: string
  updated_at: string
}

export interface LabelCounts { open_issues_count: number; closed_issues_count: number; open_merge_requests_count: number }

export function insertLabel(db: Db, l: Omit<LabelRow, 'id'>): number {
  return Number(stmt(db, `INSERT INTO labels (project_id, name, color, description, priority, created_at, updated_at)
    VALUES (@project_id, @name, @color, @description, @priority, @created_at, @updated_at)`).run(l).lastInsertRowid)
}

export function updateLabel(db: Db, id: number, patch: Partial<Pick<LabelRow, 'name' | 'color' | 'description' | 'priority' | 'updated_at'>>) {
  const cols = Object.keys(patch)
  if (!cols.length) return
  stmt(db, `UPDATE labels SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteLabelRow = (db: Db, id: number) => stmt(db, 'DELETE FROM labels WHERE id = ?').run(id)

export const findLabelById = (db: Db, projectId: number, id: number) =>
  stmt(db, 'SELECT * FROM labels WHERE project_id = ? AND id = ?').get(projectId, id) as LabelRow | undefined

export const findLabelByName = (db: Db, projectId: number, name: string) => cachedRead(db, `label:${projectId}:${name}`, ['labels'], () =>
  stmt(db, 'SELECT * FROM labels WHERE project_id = ? AND name = ?').get(projectId, name) as LabelRow | undefined)

export function listLabels(db: Db, projectId: number, f: { search?: string; limit: number; offset: number }) {
  const args: Record<string, unknown> = { project: projectId }
  let clause = ''
  if (f.search) { clause = "AND (name LIKE @q ESCAPE '\\' OR description LIKE @q ESCAPE '\\')"; args.q = likePattern(f.search) }
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM labels WHERE project_id = @project ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM labels WHERE project_id = @project ${clause} ORDER BY name, id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as LabelRow[]
  return { rows, total }
}

const COUNTS = `SELECT COALESCE(SUM(i.state = 'opened'), 0) AS open_issues_count, COALESCE(SUM(i.state = 'closed'), 0) AS closed_issues_count,
  (SELECT COUNT(*) FROM noteable_labels ml JOIN merge_requests m ON m.id = ml.noteable_id WHERE ml.label_id = @label AND m.state = 'opened') AS open_merge_requests_count
  FROM noteable_labels il JOIN issues i ON i.id = il.noteable_id WHERE il.label_id = @label`

/**
 * Open and closed issues with the label that `viewer` may see: every one when they read confidential issues
 * (`readsConfidential`), else the public ones and the confidential ones they wrote or are assigned to.
 */
export function labelCounts(db: Db, labelId: number, viewer: { id: number | null; readsConfidential: boolean }): LabelCounts {
  if (viewer.readsConfidential) return stmt(db, COUNTS).get({ label: labelId }) as LabelCounts
  return stmt(db, `${COUNTS} AND (i.confidential = 0 OR i.author_id = @viewer
    OR EXISTS (SELECT 1 FROM noteable_assignees a WHERE a.noteable_id = i.id AND a.user_id = @viewer))`).get({ label: labelId, viewer: viewer.id }) as LabelCounts
}
