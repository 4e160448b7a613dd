// Repository checks (the last `git fsck` per project) and housekeeping counters (pushes since the last gc).
import { stmt, write, type Db } from './db.js'

export interface RepositoryCheckRow {
  project_id: number
  checked_at: string
  failed: number
  output: string
}

export const findRepositoryCheck = (db: Db, projectId: number) =>
  stmt(db, 'SELECT * FROM repository_checks WHERE project_id = ?').get(projectId) as RepositoryCheckRow | undefined

export function saveRepositoryCheck(db: Db, row: RepositoryCheckRow) {
  write(db, 'repository_checks', `INSERT INTO repository_checks (project_id, checked_at, failed, output) VALUES (@project_id, @checked_at, @failed, @output)
    ON CONFLICT (project_id) DO UPDATE SET checked_at = excluded.checked_at, failed = excluded.failed, output = excluded.output`).run(row)
}

/** Projects never checked, then those whose last check is older than `before`, oldest first. */
export const listProjectsDueForCheck = (db: Db, before: string, limit: number) =>
  (stmt(db, `SELECT p.id FROM projects p LEFT JOIN repository_checks c ON c.project_id = p.id
    WHERE c.checked_at IS NULL OR c.checked_at < ? ORDER BY c.checked_at IS NOT NULL, c.checked_at, p.id LIMIT ?`)
    .all(before, limit) as { id: number }[]).map((r) => r.id)

/** Counts one more push and answers the new count. */
export function countPush(db: Db, projectId: number): number {
  return (write(db, 'repository_housekeeping', `INSERT INTO repository_housekeeping (project_id, pushes_since_gc) VALUES (?, 1)
    ON CONFLICT (project_id) DO UPDATE SET pushes_since_gc = pushes_since_gc + 1 RETURNING pushes_since_gc`).get(projectId) as { pushes_since_gc: number }).pushes_since_gc
}

export const resetPushes = (db: Db, projectId: number) =>
  write(db, 'repository_housekeeping', 'UPDATE repository_housekeeping SET pushes_since_gc = 0 WHERE project_id = ?').run(projectId)
