// Notes (comments) on issues, api-v4.md §Notes; a body that is only an award emoji awards it instead.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { AwardEmoji, Note } from '../entities/issues.js'
import { int, isoDate, oneOf, ref, text } from '../params.js'

const IssueIid = { id: ref(), issue_iid: int() }
const NoteId = { id: ref(), issue_iid: int(), note_id: int() }

export const listIssueNotes = defineEndpoint({
  method: 'GET', path: '/projects/:id/issues/:issue_iid/notes', summary: 'List notes on an issue', paginated: true,
  params: IssueIid, input: { sort: oneOf(['asc', 'desc']).optional(), order_by: oneOf(['created_at', 'updated_at']).optional() },
  responses: { 200: z.array(Note) },
})

export const getIssueNote = defineEndpoint({
  method: 'GET', path: '/projects/:id/issues/:issue_iid/notes/:note_id', summary: 'Get a note on an issue',
  params: NoteId, responses: { 200: Note },
})

export const createIssueNote = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/notes', summary: 'Comment on an issue (an award emoji alone awards it)',
  params: IssueIid, input: { body: text(), created_at: isoDate().optional() },
  responses: { 201: z.union([Note, AwardEmoji]) },
})

export const editIssueNote = defineEndpoint({
  method: 'PUT', path: '/projects/:id/issues/:issue_iid/notes/:note_id', summary: 'Modify a note on an issue',
  params: NoteId, input: { body: text() }, responses: { 200: Note },
})

export const deleteIssueNote = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/issues/:issue_iid/notes/:note_id', summary: 'Delete a note on an issue',
  params: NoteId, responses: { 204: null },
})
