// Notes, award emoji and todos of every noteable kind (see noteables.ts).
import { stmt, write, type Db } from './db.js'
import { kindOf, NOTEABLE_TABLES } from './noteables.js'

/** The kind's row counts its user notes (GitLab's user_notes_count). */
function countUserNotes(db: Db, noteableId: number, by: 1 | -1) {
  const table = NOTEABLE_TABLES[kindOf(db, noteableId)!]
  write(db, table, `UPDATE ${table} SET user_notes_count = user_notes_count + ? WHERE id = ?`).run(by, noteableId)
}

/** GitLab's note classes: an individual note (null), a thread's note, a note on a diff line, a placed commit comment. */
export type NoteType = 'DiscussionNote' | 'DiffNote' | 'LegacyDiffNote'

export interface NoteRow {
  id: number
  noteable_id: number
  author_id: number
  body: string
  system: number
  created_at: string
  updated_at: string
  /** 40 hex digits; an individual note is a discussion of its own. */
  discussion_id: string
  type: NoteType | null
  /** JSON: a DiffNote's position, or a LegacyDiffNote's path, line and line_type. */
  position: string | null
  resolved_at: string | null
  resolved_by_id: number | null
}

export type NewNote = Omit<NoteRow, 'id' | 'discussion_id' | 'type' | 'position' | 'resolved_at' | 'resolved_by_id'>
  & Partial<Pick<NoteRow, 'discussion_id' | 'type' | 'position'>>

/** Inserts a note; without a discussion_id it starts a discussion of its own (a random one, as GitLab's). */
export function insertNote(db: Db, n: NewNote): number {
  const id = Number(write(db, 'notes', `INSERT INTO notes (noteable_id, author_id, body, system, created_at, updated_at, discussion_id, type, position)
    VALUES (@noteable_id, @author_id, @body, @system, @created_at, @updated_at, COALESCE(@discussion_id, lower(hex(randomblob(20)))), @type, @position)`)
    .run({ discussion_id: null, type: null, position: null, ...n }).lastInsertRowid)
  if (!n.system) countUserNotes(db, n.noteable_id, 1)
  return id
}

export const updateNoteBody = (db: Db, id: number, body: string, at: string) =>
  write(db, 'notes', 'UPDATE notes SET body = ?, updated_at = ? WHERE id = ?').run(body, at, id)

export function deleteNoteRow(db: Db, note: NoteRow) {
  write(db, 'notes', 'DELETE FROM notes WHERE id = ?').run(note.id)
  if (!note.system) countUserNotes(db, note.noteable_id, -1)
}

export const findNote = (db: Db, noteableId: number, id: number) =>
  stmt(db, 'SELECT * FROM notes WHERE noteable_id = ? AND id = ?').get(noteableId, id) as NoteRow | undefined

/** The bodies of a noteable's user notes that may mention someone. */
export const userNoteBodiesWithMentions = (db: Db, noteableId: number) =>
  (stmt(db, "SELECT body FROM notes WHERE noteable_id = ? AND system = 0 AND instr(body, '@') > 0 ORDER BY created_at, id").all(noteableId) as { body: string }[])
    .map((r) => r.body)

export const allNotesOf = (db: Db, noteableId: number) =>
  stmt(db, 'SELECT * FROM notes WHERE noteable_id = ? ORDER BY created_at, id').all(noteableId) as NoteRow[]

export function listNotes(db: Db, noteableId: number, f: { orderBy: 'created_at' | 'updated_at'; sort: 'asc' | 'desc'; limit: number; offset: number }) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM notes WHERE noteable_id = ?').get(noteableId) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM notes WHERE noteable_id = ? ORDER BY ${f.orderBy} ${f.sort}, id ${f.sort} LIMIT ? OFFSET ?`)
    .all(noteableId, f.limit, f.offset) as NoteRow[]
  return { rows, total }
}

export interface AwardRow { id: number; noteable_id: number; user_id: number; name: string; created_at: string; updated_at: string }

export const findAward = (db: Db, noteableId: number, userId: number, name: string) =>
  stmt(db, 'SELECT * FROM award_emoji WHERE noteable_id = ? AND user_id = ? AND name = ?').get(noteableId, userId, name) as AwardRow | undefined

export function insertAward(db: Db, a: Omit<AwardRow, 'id'>): AwardRow {
  const id = Number(write(db, 'award_emoji', `INSERT INTO award_emoji (noteable_id, user_id, name, created_at, updated_at)
    VALUES (@noteable_id, @user_id, @name, @created_at, @updated_at)`).run(a).lastInsertRowid)
  return { id, ...a }
}

export const findAwardById = (db: Db, noteableId: number, id: number) =>
  stmt(db, 'SELECT * FROM award_emoji WHERE noteable_id = ? AND id = ?').get(noteableId, id) as AwardRow | undefined

export function listAwards(db: Db, noteableId: number, f: { limit: number; offset: number }) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM award_emoji WHERE noteable_id = ?').get(noteableId) as { n: number }).n
  const rows = stmt(db, 'SELECT * FROM award_emoji WHERE noteable_id = ? ORDER BY id LIMIT ? OFFSET ?').all(noteableId, f.limit, f.offset) as AwardRow[]
  return { rows, total }
}

export const deleteAward = (db: Db, id: number) => write(db, 'award_emoji', 'DELETE FROM award_emoji WHERE id = ?').run(id)

export const copyAwards = (db: Db, from: number, to: number) =>
  write(db, 'award_emoji', `INSERT INTO award_emoji (noteable_id, user_id, name, created_at, updated_at)
    SELECT ?, user_id, name, created_at, updated_at FROM award_emoji WHERE noteable_id = ?`).run(to, from)

export interface TodoRow {
  id: number
  user_id: number
  author_id: number
  project_id: number
  noteable_id: number
  action_name: 'marked' | 'assigned' | 'mentioned'
  state: 'pending' | 'done'
  body: string
  created_at: string
  updated_at: string
}

export function insertTodo(db: Db, t: Omit<TodoRow, 'id' | 'state'>): number {
  return Number(write(db, 'todos', `INSERT INTO todos (user_id, author_id, project_id, noteable_id, action_name, body, created_at, updated_at)
    VALUES (@user_id, @author_id, @project_id, @noteable_id, @action_name, @body, @created_at, @updated_at)`).run(t).lastInsertRowid)
}

export const hasPendingTodo = (db: Db, userId: number, noteableId: number) =>
  stmt(db, "SELECT 1 FROM todos WHERE user_id = ? AND noteable_id = ? AND state = 'pending'").get(userId, noteableId) !== undefined

export const findTodo = (db: Db, userId: number, id: number) =>
  stmt(db, 'SELECT * FROM todos WHERE user_id = ? AND id = ?').get(userId, id) as TodoRow | undefined

export const markTodo = (db: Db, id: number, at: string) => write(db, 'todos', "UPDATE todos SET state = 'done', updated_at = ? WHERE id = ?").run(at, id)

export const markAllTodos = (db: Db, userId: number, at: string) =>
  write(db, 'todos', "UPDATE todos SET state = 'done', updated_at = ? WHERE user_id = ? AND state = 'pending'").run(at, userId)

export function listTodos(db: Db, userId: number, f: { action?: string; authorId?: number; projectId?: number; state: string; type?: string; limit: number; offset: number }) {
  const where = ['user_id = @user', 'state = @state']
  const args: Record<string, unknown> = { user: userId, state: f.state }
  if (f.action) { where.push('action_name = @action'); args.action = f.action }
  if (f.authorId !== undefined) { where.push('author_id = @author'); args.author = f.authorId }
  if (f.projectId !== undefined) { where.push('project_id = @project'); args.project = f.projectId }
  if (f.type) { where.push('noteable_id IN (SELECT id FROM noteables WHERE kind = @type)'); args.type = f.type }
  const clause = where.join(' AND ')
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM todos WHERE ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM todos WHERE ${clause} ORDER BY id DESC LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as TodoRow[]
  return { rows, total }
}
