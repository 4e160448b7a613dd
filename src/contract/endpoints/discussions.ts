// Discussions (lib/api/discussions.rb): threads of notes on issues, merge requests, snippets and commits; threads on
// merge requests resolve. The four kinds share one set of routes under their own prefix.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Note } from '../entities/issues.js'
import { SnippetNote } from '../entities/snippets.js'
import { bool, int, isoDate, oneOf, ref, str, text } from '../params.js'

export const CommitNote = Note.extend({ noteable_id: z.null(), noteable_type: z.literal('Commit'), noteable_iid: z.null() })

const discussionOf = <N extends z.ZodType>(note: N) => z.object({ id: z.string(), individual_note: z.boolean(), notes: z.array(note) })
export const Discussion = discussionOf(Note)
export const SnippetDiscussion = discussionOf(SnippetNote)
export const CommitDiscussion = discussionOf(CommitNote)

/**
 * A diff position: GitLab requires the three shas and the type, which the service checks so that a missing one answers
 * as Grape does (`position[base_sha] is missing`); paths and lines say where on the diff.
 */
const LinePoint = z.object({ line_code: str().optional(), type: oneOf(['new', 'old']).optional(), old_line: int().optional(), new_line: int().optional() }, { error: 'is invalid' })

export const Position = z.object({
  base_sha: str(64).optional(), start_sha: str(64).optional(), head_sha: str(64).optional(),
  position_type: oneOf(['text', 'image']).optional(),
  old_path: str(4096).optional(), new_path: str(4096).optional(), old_line: int().optional(), new_line: int().optional(),
  width: int().optional(), height: int().optional(), x: int().optional(), y: int().optional(),
  /** A multi-line note's first and last lines (merge requests), kept as given. */
  line_range: z.object({ start: LinePoint.optional(), end: LinePoint.optional() }, { error: 'is invalid' }).optional(),
}, { error: 'is invalid' })
export type PositionInput = z.infer<typeof Position>

const created = { body: text(), created_at: isoDate().optional() }
const EditNote = { body: text().optional(), resolved: bool().optional() }

const onDiffs = { position: Position.optional() }

function discussionEndpoints<P extends Record<string, z.ZodType>, N extends z.ZodType, E extends Record<string, z.ZodType>>(
  prefix: string, what: string, params: P, note: N, createExtra: E,
) {
  const base = `${prefix}/discussions`
  const one = { ...params, discussion_id: str(64) }
  const noteId = { ...one, note_id: int() }
  const thread = discussionOf(note)
  return {
    list: defineEndpoint({ method: 'GET', path: base, summary: `List the discussions of ${what}`, paginated: true, params, responses: { 200: z.array(thread) } }),
    get: defineEndpoint({ method: 'GET', path: `${base}/:discussion_id`, summary: `Get a discussion of ${what}`, params: one, responses: { 200: thread } }),
    create: defineEndpoint({
      method: 'POST', path: base, summary: `Start a discussion on ${what}`, params,
      input: { ...created, ...createExtra }, responses: { 201: thread },
    }),
    notes: defineEndpoint({ method: 'GET', path: `${base}/:discussion_id/notes`, summary: `List the notes of a discussion of ${what}`, params: one, responses: { 200: z.array(note) } }),
    addNote: defineEndpoint({ method: 'POST', path: `${base}/:discussion_id/notes`, summary: `Reply in a discussion of ${what}`, params: one, input: created, responses: { 201: note } }),
    getNote: defineEndpoint({ method: 'GET', path: `${base}/:discussion_id/notes/:note_id`, summary: `Get a note of a discussion of ${what}`, params: noteId, responses: { 200: note } }),
    editNote: defineEndpoint({
      method: 'PUT', path: `${base}/:discussion_id/notes/:note_id`, summary: `Edit (body) or resolve (resolved) a note of a discussion of ${what}`,
      params: noteId, input: EditNote, responses: { 200: note },
    }),
    deleteNote: defineEndpoint({ method: 'DELETE', path: `${base}/:discussion_id/notes/:note_id`, summary: `Delete a note of a discussion of ${what}`, params: noteId, responses: { 204: null } }),
  }
}

const issue = discussionEndpoints('/projects/:id/issues/:issue_iid', 'an issue', { id: ref(), issue_iid: int() }, Note, {})
const mr = discussionEndpoints('/projects/:id/merge_requests/:merge_request_iid', 'a merge request', { id: ref(), merge_request_iid: int() }, Note, onDiffs)
const snippet = discussionEndpoints('/projects/:id/snippets/:snippet_id', 'a project snippet', { id: ref(), snippet_id: int() }, SnippetNote, {})
const commit = discussionEndpoints('/projects/:id/repository/commits/:sha', 'a commit', { id: ref(), sha: str(1024) }, CommitNote, onDiffs)

export const listIssueDiscussions = issue.list
export const getIssueDiscussion = issue.get
export const createIssueDiscussion = issue.create
export const listIssueDiscussionNotes = issue.notes
export const addIssueDiscussionNote = issue.addNote
export const getIssueDiscussionNote = issue.getNote
export const editIssueDiscussionNote = issue.editNote
export const deleteIssueDiscussionNote = issue.deleteNote

export const listMergeRequestDiscussions = mr.list
export const getMergeRequestDiscussion = mr.get
export const createMergeRequestDiscussion = mr.create
export const listMergeRequestDiscussionNotes = mr.notes
export const addMergeRequestDiscussionNote = mr.addNote
export const getMergeRequestDiscussionNote = mr.getNote
export const editMergeRequestDiscussionNote = mr.editNote
export const deleteMergeRequestDiscussionNote = mr.deleteNote
export const resolveMergeRequestDiscussion = defineEndpoint({
  method: 'PUT', path: '/projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id', summary: 'Resolve or unresolve a merge request thread',
  params: { id: ref(), merge_request_iid: int(), discussion_id: str(64) }, input: { resolved: bool() }, responses: { 200: Discussion },
})

export const listSnippetDiscussions = snippet.list
export const getSnippetDiscussion = snippet.get
export const createSnippetDiscussion = snippet.create
export const listSnippetDiscussionNotes = snippet.notes
export const addSnippetDiscussionNote = snippet.addNote
export const getSnippetDiscussionNote = snippet.getNote
export const editSnippetDiscussionNote = snippet.editNote
export const deleteSnippetDiscussionNote = snippet.deleteNote

export const listCommitDiscussions = commit.list
export const getCommitDiscussion = commit.get
export const createCommitDiscussion = commit.create
export const listCommitDiscussionNotes = commit.notes
export const addCommitDiscussionNote = commit.addNote
export const getCommitDiscussionNote = commit.getNote
export const editCommitDiscussionNote = commit.editNote
export const deleteCommitDiscussionNote = commit.deleteNote
