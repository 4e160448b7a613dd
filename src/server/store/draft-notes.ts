// Draft notes of merge requests: each author's pending review comments, read and written only as that author's.
import { stmt, write, type Db } from './db.js'

export interface DraftNoteRow {
  id: number
  noteable_id: number
  author_id: number
  note: string
  /** The thread the draft replies in once published; null starts a new one. */
  discussion_id: string | null
  resolve_discussion: number
  commit_id: string | null
  /** JSON: the checked diff position, as a DiffNote stores it. */
  position: string | null
  created_at: string
  updated_at: string
}

export type NewDraftNote = Omit<DraftNoteRow, 'id'>

export function insertDraftNote(db: Db, d: NewDraftNote): number {
  return Number(write(db, 'draft_notes', `INSERT INTO draft_notes (noteable_id, author_id, note, discussion_id, resolve_discussion, commit_id, position, created_at, updated_at)
    VALUES (@noteable_id, @author_id, @note, @discussion_id, @resolve_discussion, @commit_id, @position, @created_at, @updated_at)`).run(d).lastInsertRowid)
}

/** The author's drafts on a noteable, oldest first. */
export const draftNotesOf = (db: Db, noteableId: number, authorId: number) =>
  stmt(db, 'SELECT * FROM draft_notes WHERE noteable_id = ? AND author_id = ? ORDER BY id').all(noteableId, authorId) as DraftNoteRow[]

export const findDraftNote = (db: Db, noteableId: number, authorId: number, id: number) =>
  stmt(db, 'SELECT * FROM draft_notes WHERE noteable_id = ? AND author_id = ? AND id = ?').get(noteableId, authorId, id) as DraftNoteRow | undefined

export const updateDraftNote = (db: Db, id: number, change: { note: string; position: string | null; updated_at: string }) =>
  write(db, 'draft_notes', 'UPDATE draft_notes SET note = @note, position = @position, updated_at = @updated_at WHERE id = @id').run({ ...change, id })

export const deleteDraftNote = (db: Db, id: number) => write(db, 'draft_notes', 'DELETE FROM draft_notes WHERE id = ?').run(id)
