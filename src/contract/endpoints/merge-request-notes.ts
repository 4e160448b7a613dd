// Notes and award emoji on merge requests: api-v4.md §Notes with the merge-request prefix, in the shape of issue notes.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Note } from '../entities/issues.js'
import { MergeRequestAwardEmoji } from '../entities/merge-requests.js'
import { int, isoDate, oneOf, ref, str, text } from '../params.js'
import { MergeRequestIid } from './merge-requests.js'

const NoteId = { id: ref(), merge_request_iid: int(), note_id: int() }
const AwardId = { id: ref(), merge_request_iid: int(), award_id: int() }

export const listMergeRequestNotes = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/merge_requests/:merge_request_iid/notes', summary: 'List notes on a merge request', paginated: true,
  params: MergeRequestIid, input: { sort: oneOf(['asc', 'desc']).optional(), order_by: oneOf(['created_at', 'updated_at']).optional() },
  responses: { 200: z.array(Note) },
})

export const getMergeRequestNote = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/merge_requests/:merge_request_iid/notes/:note_id', summary: 'Get a note on a merge request',
  params: NoteId, responses: { 200: Note },
})

export const createMergeRequestNote = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/notes', summary: 'Comment on a merge request (an award emoji alone awards it)',
  params: MergeRequestIid, input: { body: text(), created_at: isoDate().optional() },
  responses: { 201: z.union([Note, MergeRequestAwardEmoji]) },
})

export const editMergeRequestNote = defineEndpoint({
  method: 'PUT', path: '/projects/:id/merge_requests/:merge_request_iid/notes/:note_id', summary: 'Modify a note on a merge request',
  params: NoteId, input: { body: text() }, responses: { 200: Note },
})

export const deleteMergeRequestNote = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/merge_requests/:merge_request_iid/notes/:note_id', summary: 'Delete a note on a merge request',
  params: NoteId, responses: { 204: null },
})

export const listMergeRequestAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/merge_requests/:merge_request_iid/award_emoji', summary: 'List award emoji on a merge request', paginated: true,
  params: MergeRequestIid, responses: { 200: z.array(MergeRequestAwardEmoji) },
})

export const getMergeRequestAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id', summary: 'Get an award emoji on a merge request',
  params: AwardId, responses: { 200: MergeRequestAwardEmoji },
})

export const createMergeRequestAwardEmoji = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/award_emoji', summary: 'Award an emoji to a merge request (`name` without colons)',
  params: MergeRequestIid, input: { name: str() }, responses: { 201: MergeRequestAwardEmoji },
})

export const deleteMergeRequestAwardEmoji = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id', summary: 'Remove an award emoji from a merge request',
  params: AwardId, responses: { 204: null },
})
