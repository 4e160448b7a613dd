// Snippet shapes: GitLab's ProjectSnippet and PersonalSnippet entities (compat-mr-ci-wiki §3), snippet notes and awards.
import { z } from 'zod'
import { AwardEmoji, Note, NoteAuthor } from './issues.js'
import { UserBasic } from './users.js'

const int = z.number().int()

export const SNIPPET_VISIBILITY = ['private', 'internal', 'public'] as const

export const SnippetFileRef = z.object({ path: z.string(), raw_url: z.string() })

export const Snippet = z.object({
  id: int,
  title: z.string(),
  description: z.string().nullable(),
  visibility: z.enum(SNIPPET_VISIBILITY),
  author: UserBasic,
  created_at: z.string(),
  updated_at: z.string(),
  project_id: int.nullable(),
  web_url: z.string(),
  raw_url: z.string(),
  file_name: z.string(),
  files: z.array(SnippetFileRef),
})
export type Snippet = z.infer<typeof Snippet>

/** A note on a snippet: GitLab's Note entity with `noteable_type` Snippet and no iid. */
export const SnippetNote = Note.extend({ noteable_type: z.literal('Snippet'), noteable_iid: z.null() })
export type SnippetNote = z.infer<typeof SnippetNote>

/**
 * The single snippet-note read of api-v4.md §Notes: snippet-like fields, not a note. `id` is the note's (so a client
 * can edit what it read), `title` and `file_name` the snippet's, `author` and the times the note's.
 */
export const SnippetNoteRead = z.object({
  id: int,
  title: z.string(),
  file_name: z.string(),
  author: NoteAuthor,
  expires_at: z.null(),
  updated_at: z.string(),
  created_at: z.string(),
})

export const SnippetAwardEmoji = AwardEmoji.extend({ awardable_type: z.literal('Snippet') })

/** An award on a note: `awardable_id` is the note's id. */
export const NoteAwardEmoji = AwardEmoji.extend({ awardable_type: z.literal('Note') })
