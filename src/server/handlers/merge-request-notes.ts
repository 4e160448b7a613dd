// Notes and award emoji on merge requests, through the shared discussion layer (services/issuables/notes.ts).
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentAward, presentNote } from '../present/issues.js'
import * as notes from '../services/issuables/index.js'
import { target } from './merge-requests.js'

const presentAll = (ctx: RequestContext, rows: notes.NoteRow[], mr: { id: number; iid: number }) =>
  notes.withAuthors(ctx, rows).map(({ note, author, resolvedBy }) => presentNote(note, author, mr, ctx, 'MergeRequest', resolvedBy))

const presentAwards = (ctx: RequestContext, rows: notes.AwardRow[]) =>
  notes.awardsWithUsers(ctx, rows).map(({ award, user }) => presentAward(award, user, ctx, 'MergeRequest' as const))

export const mergeRequestNoteHandlers = {
  listMergeRequestNotes: (input, ctx) => {
    const { mr, noteable } = target(ctx, input)
    const { rows, total } = notes.listNotes(ctx, noteable, input)
    return { status: 200, body: presentAll(ctx, rows, mr), total }
  },

  getMergeRequestNote: (input, ctx) => {
    const { mr, noteable } = target(ctx, input)
    return { status: 200, body: presentAll(ctx, [notes.findNote(ctx, noteable, input.note_id)], mr)[0] }
  },

  createMergeRequestNote: (input, ctx) => {
    const { project, mr, noteable } = target(ctx, input)
    const created = notes.createNote(ctx, project, noteable, input)
    if (created.kind === 'award') return { status: 201, body: presentAwards(ctx, [created.award])[0] }
    return { status: 201, body: presentAll(ctx, [created.note], mr)[0] }
  },

  editMergeRequestNote: (input, ctx) => {
    const { project, mr, noteable } = target(ctx, input)
    const note = notes.editNote(ctx, project, noteable, notes.findNote(ctx, noteable, input.note_id), input.body)
    return { status: 200, body: presentAll(ctx, [note], mr)[0] }
  },

  deleteMergeRequestNote: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    notes.deleteNote(ctx, project, noteable, notes.findNote(ctx, noteable, input.note_id))
    return { status: 204 }
  },

  listMergeRequestAwardEmoji: (input, ctx) => {
    const { noteable } = target(ctx, input)
    const { rows, total } = notes.listAwards(ctx, noteable)
    return { status: 200, body: presentAwards(ctx, rows), total }
  },

  getMergeRequestAwardEmoji: (input, ctx) => {
    const { noteable } = target(ctx, input)
    return { status: 200, body: presentAwards(ctx, [notes.findAward(ctx, noteable, input.award_id)])[0] }
  },

  createMergeRequestAwardEmoji: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    return { status: 201, body: presentAwards(ctx, [notes.award(ctx, project, noteable, input.name)])[0] }
  },

  deleteMergeRequestAwardEmoji: (input, ctx) => {
    const { noteable } = target(ctx, input)
    notes.removeAward(ctx, notes.findAward(ctx, noteable, input.award_id))
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.mergeRequestNotes>
