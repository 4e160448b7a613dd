// Notes on issues, award emoji and todos.
import { stmt, type Db } from './db.js'

export interface NoteRow {
  id: number
  issue_id: number
  author_id: number
  body: string
  system: number
  created_at: string
  updated_at: string
}

export function insertNote(db: Db, n: Omit<NoteRow, 'id'>): number {
  const id = Number(stmt(db, `INSERT INTO notes (issue_id, author_id, body, system, created_at, updated_at)
    VALUES (@issue_id, @author_id, @body, @system, @created_at, @updated_at)`).run(n).lastInsertRowid)
  if (!n.system) stmt(db, 'UPDATE issues SET user_notes_count = user_notes_count + 1 WHERE id = ?').run(n.issue_id)
  return id
}

export const updateNoteBody = (db: Db, id: number, body: string, at: string) =>
  stmt(db, 'UPDATE notes SET body = ?, updated_at = ? WHERE id = ?').run(body, at, id)

export function deleteNoteRow(db: Db, note: NoteRow) {
  stmt(db, 'DELETE FROM notes WHERE id = ?').run(note.id)
  if (!note.system) stmt(db, 'UPDATE issues SET user_notes_count = user_notes_count - 1 WHERE id = ?').run(note.issue_id)
}

export const findNote = (db: Db, issueId: number, id: number) =>
  stmt(db, 'SELECT * FROM notes WHERE issue_id = ? AND id = ?').get(issueId, id) as NoteRow | undefined

export const allNotesOf = (db: Db, issueId: number) =>
  stmt(db, 'SELECT * FROM notes WHERE issue_id = ? ORDER BY created_at, id').all(issueId) as NoteRow[]

export function listNotes(db: Db, issueId: number, f: { orderBy: 'created_at' | 'updated_at'; sort: 'asc' | 'desc'; limit: number; offset: number }) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM notes WHERE issue_id = ?').get(issueId) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM notes WHERE issue_id = ? ORDER BY ${f.orderBy} ${f.sort}, id ${f.sort} LIMIT ? OFFSET ?`)
    .all(issueId, f.limit, f.offset) as NoteRow[]
  return { rows, total }
}

export interface AwardRow { id: number; issue_id: number; user_id: number; name: string; created_at: string; updated_at: string }

export const findAward = (db: Db, issueId: number, userId: number, name: string) =>
  stmt(db, 'SELECT * FROM award_emoji WHERE issue_id = ? AND user_id = ? AND name = ?').get(issueId, userId, name) as AwardRow | undefined

export function insertAward(db: Db, a: Omit<AwardRow, 'id'>): AwardRow {
  const id = Number(stmt(db, `INSERT INTO award_emoji (issue_id, user_id, name, created_at, updated_at)
    VALUES (@issue_id, @user_id, @name, @created_at, @updated_at)`).run(a).lastInsertRowid)
  return { id, ...a }
}

export const deleteAward = (db: Db, id: number) => stmt(db, 'DELETE FROM award_emoji WHERE id = ?').run(id)

export const copyAwards = (db: Db, fromIssue: number, toIssue: number) =>
  stmt(db, `INSERT INTO award_emoji (issue_id, user_id, name, created_at, updated_at)
    SELECT ?, user_id, name, created_at, updated_at FROM award_emoji WHERE issue_id = ?`).run(toIssue, fromIssue)

export interface TodoRow {
  id: number
  user_id: number
  author_id: number
  project_id: number
  issue_id: number
  action_name: 'marked' | 'assigned' | 'mentioned'
  state: 'pending' | 'done'
  body: string
  created_at: string
  updated_at: string
}

export function insertTodo(db: Db, t: Omit<TodoRow, 'id' | 'state'>): number {
  return Number(stmt(db, `INSERT INTO todos (user_id, author_id, project_id, issue_id, action_name, body, created_at, updated_at)
    VALUES (@user_id, @author_id, @project_id, @issue_id, @action_name, @body, @created_at, @updated_at)`).run(t).lastInsertRowid)
}

export const hasPendingTodo = (db: Db, userId: number, issueId: number) =>
  stmt(db, "SELECT 1 FROM todos WHERE user_id = ? AND issue_id = ? AND state = 'pending'").get(userId, issueId) !== undefined

export const findTodo = (db: Db, userId: number, id: number) =>
  stmt(db, 'SELECT * FROM todos WHERE user_id = ? AND id = ?').get(userId, id) as TodoRow | undefined

export const markTodo = (db: Db, id: number, at: string) => stmt(db, "UPDATE todos SET state = 'done', updated_at = ? WHERE id = ?").run(at, id)

export const markAllTodos = (db: Db, userId: number, at: string) =>
  stmt(db, "UPDATE todos SET state = 'done', updated_at = ? WHERE user_id = ? AND state = 'pending'").run(at, userId)

export function listTodos(db: Db, userId: number, f: { action?: string; authorId?: number; projectId?: number; state: string; type?: string; limit: number; offset: number }) {
  const where = ['user_id = @user', 'state = @state']
  const args: Record<string, unknown> = { user: userId, state: f.state }
  if (f.action) { where.push('action_name = @action'); args.action = f.action }
  if (f.authorId !== undefined) { where.push('author_id = @author'); args.author = f.authorId }
  if (f.projectId !== undefined) { where.push('project_id = @project'); args.project = f.projectId }
  // Only issues carry todos so far.
  if (f.type === 'MergeRequest') where.push('0')
  const clause = where.join(' AND ')
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM todos WHERE ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM todos WHERE ${clause} ORDER BY id DESC LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as TodoRow[]
  return { rows, total }
}
