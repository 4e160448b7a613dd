// Draft notes of a merge request: the caller's own, over the merge request the caller can see.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentDraftNote } from '../present/draft-notes.js'
import * as drafts from '../services/merge-requests/index.js'
import { target } from './merge-requests.js'

export const draftNoteHandlers = {
  listDraftNotes: (input, ctx) => {
    const { noteable } = target(ctx, input)
    return { status: 200, body: drafts.listDraftNotes(ctx, noteable).map(presentDraftNote) }
  },
  getDraftNote: (input, ctx) => {
    const { noteable } = target(ctx, input)
    return { status: 200, body: presentDraftNote(drafts.findDraftNote(ctx, noteable, input.draft_note_id)) }
  },
  createDraftNote: async (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    return { status: 201, body: presentDraftNote(await drafts.createDraftNote(ctx, project, noteable, input)) }
  },
  updateDraftNote: async (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    const draft = drafts.findDraftNote(ctx, noteable, input.draft_note_id)
    return { status: 200, body: presentDraftNote(await drafts.updateDraftNote(ctx, project, noteable, draft, input)) }
  },
  deleteDraftNote: (input, ctx) => {
    const { noteable } = target(ctx, input)
    drafts.deleteDraftNote(ctx, drafts.findDraftNote(ctx, noteable, input.draft_note_id))
    return { status: 204 as const }
  },
  publishDraftNote: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    drafts.publishDraftNote(ctx, project, noteable, drafts.findDraftNote(ctx, noteable, input.draft_note_id))
    return { status: 204 as const }
  },
  bulkPublishDraftNotes: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    drafts.publishDraftNotes(ctx, project, noteable)
    return { status: 204 as const }
  },
} satisfies Handlers<typeof contract.draftNotes>
