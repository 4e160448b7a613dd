// Discussions: the notes of a noteable grouped by discussion_id, their resolution, and the commit noteable kind.
import { inIds, stmt, write, type Db } from './db.js'
import { insertKindRow, type NoteableRow } from './noteables.js'
import type { NoteRow } from './notes.js'

/** The note classes that resolve, on the kinds that resolve (GitLab's potentially_resolvable scope). */
const RESOLVABLE = "system = 0 AND type IN ('DiscussionNote', 'DiffNote')"

/** A page of discussion ids, each discussion placed by its first note (GitLab's discussion_ids_relation). */
export function listDiscussionIds(db: Db, noteableId: number, f: { limit: number; offset: number }) {
  const total = (stmt(db, 'SELECT COUNT(DISTINCT discussion_id) AS n FROM notes WHERE noteable_id = ?').get(noteableId) as { n: number }).n
  const ids = (stmt(db, `SELECT discussion_id FROM notes WHERE noteable_id = ? GROUP BY discussion_id
    ORDER BY MIN(created_at), MIN(id) LIMIT ? OFFSET ?`).all(noteableId, f.limit, f.offset) as { discussion_id: string }[])
    .map((r) => r.discussion_id)
  return { ids, total }
}

/** The notes of some discussions of a noteable, oldest first. */
export function notesOfDiscussions(db: Db, noteableId: number, discussionIds: string[]): NoteRow[] {
  if (!discussionIds.length) return []
  return stmt(db, `SELECT * FROM notes WHERE noteable_id = ? AND discussion_id IN (SELECT value FROM json_each(?))
    ORDER BY created_at, id`).all(noteableId, JSON.stringify(discussionIds)) as NoteRow[]
}

/** An individual note's discussion becomes a thread when someone replies to it. */
export const convertToThread = (db: Db, noteableId: number, discussionId: string) =>
  write(db, 'notes', "UPDATE notes SET type = 'DiscussionNote' WHERE noteable_id = ? AND discussion_id = ? AND type IS NULL").run(noteableId, discussionId)

/** Resolves (by a user) or unresolves (null) the resolvable notes of a discussion, or one note. */
export function setResolved(db: Db, where: { noteableId: number; discussionId?: string; noteId?: number }, by: { userId: number; at: string } | null) {
  const target = where.noteId !== undefined ? 'id = @note' : 'discussion_id = @discussion'
  const args = { noteable: where.noteableId, discussion: where.discussionId ?? null, note: where.noteId ?? null }
  if (by) {
    write(db, 'notes', `UPDATE notes SET resolved_at = @at, resolved_by_id = @user WHERE noteable_id = @noteable AND ${target} AND ${RESOLVABLE}
      AND resolved_at IS NULL`).run({ ...args, at: by.at, user: by.userId })
  } else {
    write(db, 'notes', `UPDATE notes SET resolved_at = NULL, resolved_by_id = NULL WHERE noteable_id = @noteable AND ${target} AND ${RESOLVABLE}`).run(args)
  }
}

/** How many resolvable notes are still unresolved, by noteable (merge requests' blocking discussions). */
export function unresolvedCounts(db: Db, noteableIds: number[]): Map<number, number> {
  if (!noteableIds.length) return new Map()
  const args: Record<string, unknown> = {}
  const rows = stmt(db, `SELECT noteable_id, COUNT(*) AS n FROM notes WHERE noteable_id ${inIds('id', noteableIds, args)} AND ${RESOLVABLE}
    AND resolved_at IS NULL GROUP BY noteable_id`).all(args) as { noteable_id: number; n: number }[]
  return new Map(rows.map((r) => [r.noteable_id, r.n]))
}

/** A commit's noteable row: what the shared services read, with the commit's sha. */
export interface CommitNoteableRow { id: number; project_id: number; sha: string; discussion_locked: number; user_notes_count: number; updated_at: string }

export const findCommitNoteable = (db: Db, projectId: number, sha: string) =>
  stmt(db, 'SELECT * FROM commit_noteables WHERE project_id = ? AND sha = ?').get(projectId, sha) as CommitNoteableRow | undefined

/** The commit a commit noteable stands for. */
export const commitShaOf = (db: Db, noteableId: number) =>
  (stmt(db, 'SELECT sha FROM commit_noteables WHERE id = ?').get(noteableId) as { sha: string } | undefined)?.sha

/** The commit's noteable, created with its first note. */
export function ensureCommitNoteable(db: Db, projectId: number, sha: string, at: string): CommitNoteableRow {
  return findCommitNoteable(db, projectId, sha) ?? insertKindRow<CommitNoteableRow>(db, 'Commit', { project_id: projectId, sha, updated_at: at })
}

/** A commit as the shared note services see a noteable: no iid, title, author or time tracking. */
export const commitAsNoteable = (c: CommitNoteableRow): NoteableRow => ({
  id: c.id, project_id: c.project_id, iid: 0, title: c.sha, author_id: 0, discussion_locked: c.discussion_locked,
  time_estimate: 0, total_time_spent: 0, updated_at: c.updated_at,
})
