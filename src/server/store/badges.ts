// Badges: rows of a project or of a group.
import { stmt, write, type Db } from './db.js'

export interface BadgeRow {
  id: number
  project_id: number | null
  group_id: number | null
  name: string | null
  link_url: string
  image_url: string
  created_at: string
}

/** A project's own badges and those of its group and the group's ancestors, as GitLab's Project#badges. */
export function listBadges(db: Db, f: { projectId?: number; groupIds: number[]; name?: string; limit: number; offset: number }) {
  const where = `(project_id = @project OR group_id IN (SELECT value FROM json_each(@groups)))${f.name !== undefined ? ' AND name = @name' : ''}`
  const args = { project: f.projectId ?? -1, groups: JSON.stringify(f.groupIds), name: f.name }
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM badges WHERE ${where}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM badges WHERE ${where} ORDER BY id LIMIT @limit OFFSET @offset`).all({ ...args, limit: f.limit, offset: f.offset }) as BadgeRow[]
  return { rows, total }
}

export const findBadge = (db: Db, id: number) => stmt(db, 'SELECT * FROM badges WHERE id = ?').get(id) as BadgeRow | undefined

export function insertBadge(db: Db, row: Omit<BadgeRow, 'id'>): number {
  return Number(write(db, 'badges', `INSERT INTO badges (project_id, group_id, name, link_url, image_url, created_at)
    VALUES (@project_id, @group_id, @name, @link_url, @image_url, @created_at)`).run(row).lastInsertRowid)
}

export function updateBadge(db: Db, id: number, patch: Partial<Pick<BadgeRow, 'name' | 'link_url' | 'image_url'>>) {
  const cols = Object.keys(patch)
  if (!cols.length) return
  write(db, 'badges', `UPDATE badges SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteBadge = (db: Db, id: number) => write(db, 'badges', 'DELETE FROM badges WHERE id = ?').run(id)

/** A group and its ancestors, nearest first. */
export function ancestorGroupIds(db: Db, groupId: number): number[] {
  return (stmt(db, `WITH RECURSIVE up(id, depth) AS (SELECT ?, 0 UNION ALL
      SELECT n.parent_id, up.depth + 1 FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL)
    SELECT id FROM up ORDER BY depth`).all(groupId) as { id: number }[]).map((r) => r.id)
}
