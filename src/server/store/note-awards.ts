// Award emoji on notes (of any noteable kind); awards on the noteable itself are in notes.ts.
import { stmt, write, type Db } from './db.js'

export interface NoteAwardRow { id: number; note_id: number; user_id: number; name: string; created_at: string; updated_at: string }

export const findNoteAward = (db: Db, noteId: number, userId: number, name: string) =>
  stmt(db, 'SELECT * FROM note_award_emoji WHERE note_id = ? AND user_id = ? AND name = ?').get(noteId, userId, name) as NoteAwardRow | undefined

export const findNoteAwardById = (db: Db, noteId: number, id: number) =>
  stmt(db, 'SELECT * FROM note_award_emoji WHERE note_id = ? AND id = ?').get(noteId, id) as NoteAwardRow | undefined

export function insertNoteAward(db: Db, a: Omit<NoteAwardRow, 'id'>): NoteAwardRow {
  const id = Number(write(db, 'note_award_emoji', `INSERT INTO note_award_emoji (note_id, user_id, name, created_at, updated_at)
    VALUES (@note_id, @user_id, @name, @created_at, @updated_at)`).run(a).lastInsertRowid)
  return { id, ...a }
}

export function listNoteAwards(db: Db, noteId: number, f: { limit: number; offset: number }) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM note_award_emoji WHERE note_id = ?').get(noteId) as { n: number }).n
  const rows = stmt(db, 'SELECT * FROM note_award_emoji WHERE note_id = ? ORDER BY id LIMIT ? OFFSET ?').all(noteId, f.limit, f.offset) as NoteAwardRow[]
  return { rows, total }
}

export const deleteNoteAward = (db: Db, id: number) => write(db, 'note_award_emoji', 'DELETE FROM note_award_emoji WHERE id = ?').run(id)
