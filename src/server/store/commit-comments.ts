// Comments on commits: the notes of the commit noteable kind (store/discussions.ts), read in the commit comment shape.
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

// A placed comment (LegacyDiffNote) keeps path, line and line_type; a diff thread's note (DiffNote) names its line by
// position, where only one of old_line and new_line says on which side it is.
const COMMENT = `SELECT n.id, c.project_id, c.sha, n.body AS note, n.author_id, n.created_at,
  CASE n.type WHEN 'LegacyDiffNote' THEN json_extract(n.position, '$.path') WHEN 'DiffNote' THEN json_extract(n.position, '$.new_path') END AS path,
  CASE n.type WHEN 'LegacyDiffNote' THEN json_extract(n.position, '$.line')
    WHEN 'DiffNote' THEN COALESCE(json_extract(n.position, '$.new_line'), json_extract(n.position, '$.old_line')) END AS line,
  CASE n.type WHEN 'LegacyDiffNote' THEN json_extract(n.position, '$.line_type')
    WHEN 'DiffNote' THEN CASE WHEN json_extract(n.position, '$.old_line') IS NULL THEN 'new'
      WHEN json_extract(n.position, '$.new_line') IS NULL THEN 'old' END END AS line_type
  FROM notes n JOIN commit_noteables c ON c.id = n.noteable_id`

export const findComment = (db: Db, id: number) =>
  stmt(db, `${COMMENT} WHERE n.id = ?`).get(id) as CommitCommentRow | undefined

export function listComments(db: Db, projectId: number, sha: string, f: { limit: number; offset: number }) {
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM notes n JOIN commit_noteables c ON c.id = n.noteable_id
    WHERE c.project_id = ? AND c.sha = ?`).get(projectId, sha) as { n: number }).n
  const rows = stmt(db, `${COMMENT} WHERE c.project_id = ? AND c.sha = ? ORDER BY n.created_at, n.id LIMIT ? OFFSET ?`)
    .all(projectId, sha, f.limit, f.offset) as CommitCommentRow[]
  return { rows, total }
}
