// Notes and award emoji on project snippets (api-v4.md §Notes with the snippet prefix); personal snippets take none.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { NoteAwardEmoji, SnippetAwardEmoji, SnippetNote, SnippetNoteRead } from '../entities/snippets.js'
import { int, isoDate, oneOf, ref, str, text } from '../params.js'

const SnippetRef = { id: ref(), snippet_id: int() }
const NoteId = { ...SnippetRef, note_id: int() }
const AwardId = { ...SnippetRef, award_id: int() }
const NoteAwardId = { ...NoteId, award_id: int() }

export const listSnippetNotes = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets/:snippet_id/notes', summary: 'List notes on a project snippet', paginated: true,
  params: SnippetRef, input: { sort: oneOf(['asc', 'desc']).optional(), order_by: oneOf(['created_at', 'updated_at']).optional() },
  responses: { 200: z.array(SnippetNote) },
})

export const getSnippetNote = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets/:snippet_id/notes/:note_id', summary: 'Get a note on a project snippet (in the snippet-like shape of api-v4.md)',
  params: NoteId, responses: { 200: SnippetNoteRead },
})

export const createSnippetNote = defineEndpoint({
  method: 'POST', path: '/projects/:id/snippets/:snippet_id/notes', summary: 'Comment on a project snippet (an award emoji alone awards it)',
  params: SnippetRef, input: { body: text(), created_at: isoDate().optional() },
  responses: { 201: z.union([SnippetNote, SnippetAwardEmoji]) },
})

export const editSnippetNote = defineEndpoint({
  method: 'PUT', path: '/projects/:id/snippets/:snippet_id/notes/:note_id', summary: 'Modify a note on a project snippet',
  params: NoteId, input: { body: text() }, responses: { 200: SnippetNote },
})

export const deleteSnippetNote = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/snippets/:snippet_id/notes/:note_id', summary: 'Delete a note on a project snippet',
  params: NoteId, responses: { 204: null },
})

export const listSnippetAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets/:snippet_id/award_emoji', summary: 'List award emoji on a project snippet', paginated: true,
  params: SnippetRef, responses: { 200: z.array(SnippetAwardEmoji) },
})

export const getSnippetAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets/:snippet_id/award_emoji/:award_id', summary: 'Get an award emoji on a project snippet',
  params: AwardId, responses: { 200: SnippetAwardEmoji },
})

export const createSnippetAwardEmoji = defineEndpoint({
  method: 'POST', path: '/projects/:id/snippets/:snippet_id/award_emoji', summary: 'Award an emoji to a project snippet (`name` without colons)',
  params: SnippetRef, input: { name: str() }, responses: { 201: SnippetAwardEmoji },
})

export const deleteSnippetAwardEmoji = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/snippets/:snippet_id/award_emoji/:award_id', summary: 'Remove an award emoji from a project snippet',
  params: AwardId, responses: { 204: null },
})

export const listSnippetNoteAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji', summary: 'List award emoji on a note of a project snippet', paginated: true,
  params: NoteId, responses: { 200: z.array(NoteAwardEmoji) },
})

export const getSnippetNoteAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji/:award_id', summary: 'Get an award emoji on a note of a project snippet',
  params: NoteAwardId, responses: { 200: NoteAwardEmoji },
})

export const createSnippetNoteAwardEmoji = defineEndpoint({
  method: 'POST', path: '/projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji', summary: 'Award an emoji to a note of a project snippet',
  params: NoteId, input: { name: str() }, responses: { 201: NoteAwardEmoji },
})

export const deleteSnippetNoteAwardEmoji = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/snippets/:snippet_id/notes/:note_id/award_emoji/:award_id', summary: 'Remove an award emoji from a note of a project snippet',
  params: NoteAwardId, responses: { 204: null },
})
