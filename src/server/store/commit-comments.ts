// Comments on commits.
import { stmt, type Db } from './db.js'

export interface CommitCommentRow {
  id: number
  project_id: number
  sha: string
  note: string
  path: string | null
  line: number | null
  line_type: 'new' | 'old' | null
  author_id: number
  created_at: string
}

export function insertComment(db: Db, c: Omit<CommitCommentRow, 'id'>): number {
  return Number(stmt(db, `INSERT INTO commit_comments (project_id, sha, note, path, line, line_type, author_id, created_at)
    VALUES (@project_id, @sha, @note, @path, @line, @line_type, @author_id, @created_at)`).run(c).lastInsertRowid)
}

export const findComment = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM commit_comments WHERE id = ?').get(id) as CommitCommentRow | undefined

export function listComments(db: Db, projectId: number, sha: string, f: { limit: number; offset: number }) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM commit_comments WHERE project_id = ? AND sha = ?').get(projectId, sha) as { n: number }).n
  const rows = stmt(db, 'SELECT * FROM commit_comments WHERE project_id = ? AND sha = ? ORDER BY id LIMIT ? OFFSET ?')
    .all(projectId, sha, f.limit, f.offset) as CommitCommentRow[]
  return { rows, total }
}
