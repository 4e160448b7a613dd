// Snippets, their notes and award emoji as GitLab serializes them (ProjectSnippet / PersonalSnippet, Note, AwardEmoji).
import type { Snippet, SnippetNote } from '../../contract/entities/snippets.js'
import type { RequestContext } from '../context.js'
import type { NoteAwardRow } from '../store/note-awards.js'
import type { AwardRow, NoteRow } from '../store/notes.js'
import type { SnippetRow } from '../store/snippets.js'
import type { UserRow } from '../store/users.js'
import { presentAward, presentNote } from './issues.js'
import { presentUserBasic } from './users.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

/** GitLab's web paths: `/<project>/-/snippets/<id>` for a project snippet, `/-/snippets/<id>` for a personal one. */
export const snippetWebUrl = (s: SnippetRow, projectPath: string | null, ctx: Urls) =>
  projectPath === null ? `${ctx.baseUrl}/-/snippets/${s.id}` : `${ctx.baseUrl}/${projectPath}/-/snippets/${s.id}`

/** The default branch GitLab gives snippet repositories; file raw URLs name it. */
const SNIPPET_REF = 'main'

export function presentSnippet(s: SnippetRow, author: UserRow, projectPath: string | null, fileNames: string[], ctx: Urls): Snippet {
  const web = snippetWebUrl(s, projectPath, ctx)
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    visibility: s.visibility,
    author: presentUserBasic(author, ctx),
    created_at: s.created_at,
    updated_at: s.updated_at,
    project_id: s.project_id,
    web_url: web,
    raw_url: `${web}/raw`,
    file_name: fileNames[0] ?? '',
    files: fileNames.map((path) => ({ path, raw_url: `${web}/raw/${SNIPPET_REF}/${path.split('/').map(encodeURIComponent).join('/')}` })),
  }
}

export const presentSnippetNote = (n: NoteRow, author: UserRow, s: SnippetRow, ctx: Urls): SnippetNote =>
  ({ ...presentNote(n, author, { id: s.id, iid: 0 }, ctx), noteable_type: 'Snippet', noteable_iid: null })

/** The single snippet-note read of api-v4.md: the note's id, author and times beside the snippet's title and file name. */
export function presentSnippetNoteRead(n: NoteRow, author: UserRow, s: SnippetRow, fileName: string, ctx: Urls) {
  const { author: noteAuthor } = presentNote(n, author, { id: s.id, iid: 0 }, ctx)
  return { id: n.id, title: s.title, file_name: fileName, author: noteAuthor, expires_at: null, updated_at: n.updated_at, created_at: n.created_at }
}

export const presentSnippetAward = (a: AwardRow, user: UserRow, ctx: Urls) =>
  ({ ...presentAward(a, user, ctx), awardable_type: 'Snippet' as const })

/** An award on a note: GitLab's AwardEmoji with the note as the awardable. */
export const presentNoteAward = (a: NoteAwardRow, user: UserRow, ctx: Urls) =>
  ({ ...presentAward({ ...a, noteable_id: a.note_id }, user, ctx), awardable_type: 'Note' as const })
