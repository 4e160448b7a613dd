// Discussions as GitLab's Entities::Discussion: the thread's id, whether it is an individual note, and its notes.
import type { RequestContext } from '../context.js'
import type { NoteRow } from '../store/notes.js'
import type { UserRow } from '../store/users.js'
import { presentNote } from './issues.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

/** A note with the users it names, as services/notes.withAuthors gives it. */
export interface NoteWithUsers { note: NoteRow; author: UserRow; resolvedBy: UserRow | null }

/** How one kind presents its notes (issues, merge requests, snippets and commits differ in noteable fields). */
export type PresentNote<T> = (n: NoteWithUsers) => T

/** A thread whose first note is a plain note is an individual note (GitLab's IndividualNoteDiscussion). */
export const presentDiscussion = <T>(id: string, notes: NoteWithUsers[], present: PresentNote<T>) => ({
  id,
  individual_note: notes[0]?.note.type === null,
  notes: notes.map(present),
})

/** A commit's note: GitLab keys it by commit_id, so it has no noteable id or iid. */
export const presentCommitNote = ({ note, author }: NoteWithUsers, ctx: Urls) => ({
  ...presentNote(note, author, { id: 0, iid: 0 }, ctx),
  noteable_id: null,
  noteable_type: 'Commit' as const,
  noteable_iid: null,
})
