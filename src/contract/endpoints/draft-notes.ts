// Draft notes (lib/api/draft_notes.rb): a reviewer's pending comments on a merge request, visible only to their author
// until published one by one or all at once (bulk_publish), when they become notes and threads.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { NotePosition } from '../entities/issues.js'
import { bool, int, str, text } from '../params.js'
import { Position } from './discussions.js'
import { MergeRequestIid } from './merge-requests.js'

const nstr = z.string().nullable()

export const DraftNote = z.object({
  id: z.number().int(),
  author_id: z.number().int(),
  merge_request_id: z.number().int(),
  resolve_discussion: z.boolean(),
  discussion_id: nstr,
  note: z.string(),
  commit_id: nstr,
  line_code: nstr,
  position: NotePosition,
})
export type DraftNote = z.infer<typeof DraftNote>

const base = '/projects/:id/merge_requests/:merge_request_iid/draft_notes'
const DraftId = { ...MergeRequestIid, draft_note_id: int() }

export const listDraftNotes = defineEndpoint({
  method: 'GET', path: base, summary: "List the caller's draft notes on a merge request", auth: 'required',
  params: MergeRequestIid, responses: { 200: z.array(DraftNote) },
})

export const getDraftNote = defineEndpoint({
  method: 'GET', path: `${base}/:draft_note_id`, summary: "Get one of the caller's draft notes", auth: 'required',
  params: DraftId, responses: { 200: DraftNote },
})

export const createDraftNote = defineEndpoint({
  method: 'POST', path: base, summary: 'Create a draft note: a new thread, a diff thread (position), or a reply (in_reply_to_discussion_id)', auth: 'required',
  params: MergeRequestIid,
  input: { note: text(), commit_id: str(64).optional(), in_reply_to_discussion_id: str(64).optional(), resolve_discussion: bool().optional(), position: Position.optional() },
  responses: { 201: DraftNote },
})

export const updateDraftNote = defineEndpoint({
  method: 'PUT', path: `${base}/:draft_note_id`, summary: 'Modify a draft note (note, position)', auth: 'required',
  params: DraftId, input: { note: text().optional(), position: Position.optional() }, responses: { 200: DraftNote },
})

export const deleteDraftNote = defineEndpoint({
  method: 'DELETE', path: `${base}/:draft_note_id`, summary: 'Delete a draft note', auth: 'required',
  params: DraftId, responses: { 204: null },
})

export const publishDraftNote = defineEndpoint({
  method: 'PUT', path: `${base}/:draft_note_id/publish`, summary: 'Publish one draft note', auth: 'required',
  params: DraftId, responses: { 204: null },
})

export const bulkPublishDraftNotes = defineEndpoint({
  method: 'POST', path: `${base}/bulk_publish`, summary: "Publish all of the caller's draft notes on a merge request", auth: 'required',
  params: MergeRequestIid, responses: { 204: null },
})
