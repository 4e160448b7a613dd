// Award emoji on issues and on the notes of issues and merge requests (GitLab's emoji reactions API); the merge
// request's and the snippets' own awards are declared beside their notes.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { AwardEmoji } from '../entities/issues.js'
import { NoteAwardEmoji } from '../entities/snippets.js'
import { int, ref, str } from '../params.js'
import { MergeRequestIid } from './merge-requests.js'

const IssueIid = { id: ref(), issue_iid: int() }
const IssueAwardId = { ...IssueIid, award_id: int() }
const IssueNoteId = { ...IssueIid, note_id: int() }
const IssueNoteAwardId = { ...IssueNoteId, award_id: int() }
const MergeRequestNoteId = { ...MergeRequestIid, note_id: int() }
const MergeRequestNoteAwardId = { ...MergeRequestNoteId, award_id: int() }
const Name = { name: str() }

export const listIssueAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/issues/:issue_iid/award_emoji', summary: 'List award emoji on an issue', paginated: true,
  params: IssueIid, responses: { 200: z.array(AwardEmoji) },
})

export const getIssueAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/issues/:issue_iid/award_emoji/:award_id', summary: 'Get an award emoji on an issue',
  params: IssueAwardId, responses: { 200: AwardEmoji },
})

export const createIssueAwardEmoji = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/award_emoji', summary: 'Award an emoji to an issue (`name` without colons)',
  params: IssueIid, input: Name, responses: { 201: AwardEmoji },
})

export const deleteIssueAwardEmoji = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/issues/:issue_iid/award_emoji/:award_id', summary: 'Remove an award emoji from an issue',
  params: IssueAwardId, responses: { 204: null },
})

export const listIssueNoteAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/issues/:issue_iid/notes/:note_id/award_emoji', summary: 'List award emoji on a note of an issue', paginated: true,
  params: IssueNoteId, responses: { 200: z.array(NoteAwardEmoji) },
})

export const getIssueNoteAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id', summary: 'Get an award emoji on a note of an issue',
  params: IssueNoteAwardId, responses: { 200: NoteAwardEmoji },
})

export const createIssueNoteAwardEmoji = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/notes/:note_id/award_emoji', summary: 'Award an emoji to a note of an issue',
  params: IssueNoteId, input: Name, responses: { 201: NoteAwardEmoji },
})

export const deleteIssueNoteAwardEmoji = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/issues/:issue_iid/notes/:note_id/award_emoji/:award_id', summary: 'Remove an award emoji from a note of an issue',
  params: IssueNoteAwardId, responses: { 204: null },
})

export const listMergeRequestNoteAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji', summary: 'List award emoji on a note of a merge request', paginated: true,
  params: MergeRequestNoteId, responses: { 200: z.array(NoteAwardEmoji) },
})

export const getMergeRequestNoteAwardEmoji = defineEndpoint({
  method: 'GET', path: '/projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji/:award_id', summary: 'Get an award emoji on a note of a merge request',
  params: MergeRequestNoteAwardId, responses: { 200: NoteAwardEmoji },
})

export const createMergeRequestNoteAwardEmoji = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji', summary: 'Award an emoji to a note of a merge request',
  params: MergeRequestNoteId, input: Name, responses: { 201: NoteAwardEmoji },
})

export const deleteMergeRequestNoteAwardEmoji = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/merge_requests/:merge_request_iid/notes/:note_id/award_emoji/:award_id', summary: 'Remove an award emoji from a note of a merge request',
  params: MergeRequestNoteAwardId, responses: { 204: null },
})
