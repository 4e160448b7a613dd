// Notes and award emoji on project snippets, through the shared discussion layer (services/issuables/notes.ts).
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentNoteAward, presentSnippetAward, presentSnippetNote, presentSnippetNoteRead } from '../present/snippets.js'
import * as noteAwards from '../services/issuables/index.js'
import * as notes from '../services/issuables/index.js'
import { filesOf, noteableOf, type SnippetRow } from '../services/snippets/index.js'
import { projectSnippet } from './snippets.js'

const target = (ctx: RequestContext, input: { id: string; snippet_id: number }) => {
  const { project, snippet } = projectSnippet(ctx, input)
  return { project, snippet, noteable: noteableOf(snippet) }
}

const presentAll = (ctx: RequestContext, rows: notes.NoteRow[], s: SnippetRow) =>
  notes.withAuthors(ctx, rows).map(({ note, author }) => presentSnippetNote(note, author, s, ctx))

const presentAwards = (ctx: RequestContext, rows: notes.AwardRow[]) =>
  notes.awardsWithUsers(ctx, rows).map(({ award, user }) => presentSnippetAward(award, user, ctx))

const presentNoteAwards = (ctx: RequestContext, rows: noteAwards.NoteAwardRow[]) =>
  notes.awardsWithUsers(ctx, rows).map(({ award, user }) => presentNoteAward(award, user, ctx))

/** The note a note-award route names, on a snippet the caller may read. */
const noteTarget = (ctx: RequestContext, input: { id: string; snippet_id: number; note_id: number }) => {
  const { project, noteable } = target(ctx, input)
  return { project, note: notes.findNote(ctx, noteable, input.note_id) }
}

export const snippetNoteHandlers = {
  listSnippetNotes: (input, ctx) => {
    const { snippet, noteable } = target(ctx, input)
    const { rows, total } = notes.listNotes(ctx, noteable, input)
    return { status: 200, body: presentAll(ctx, rows, snippet), total }
  },

  getSnippetNote: (input, ctx) => {
    const { snippet, noteable } = target(ctx, input)
    const [{ note, author }] = notes.withAuthors(ctx, [notes.findNote(ctx, noteable, input.note_id)])
    return { status: 200, body: presentSnippetNoteRead(note, author, snippet, filesOf(ctx, snippet)[0]?.path ?? '', ctx) }
  },

  createSnippetNote: (input, ctx) => {
    const { project, snippet, noteable } = target(ctx, input)
    const created = notes.createNote(ctx, project, noteable, input)
    if (created.kind === 'award') return { status: 201, body: presentAwards(ctx, [created.award])[0] }
    return { status: 201, body: presentAll(ctx, [created.note], snippet)[0] }
  },

  editSnippetNote: (input, ctx) => {
    const { project, snippet, noteable } = target(ctx, input)
    const note = notes.editNote(ctx, project, noteable, notes.findNote(ctx, noteable, input.note_id), input.body)
    return { status: 200, body: presentAll(ctx, [note], snippet)[0] }
  },

  deleteSnippetNote: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    notes.deleteNote(ctx, project, noteable, notes.findNote(ctx, noteable, input.note_id))
    return { status: 204 }
  },

  listSnippetAwardEmoji: (input, ctx) => {
    const { rows, total } = notes.listAwards(ctx, target(ctx, input).noteable)
    return { status: 200, body: presentAwards(ctx, rows), total }
  },

  getSnippetAwardEmoji: (input, ctx) =>
    ({ status: 200, body: presentAwards(ctx, [notes.findAward(ctx, target(ctx, input).noteable, input.award_id)])[0] }),

  createSnippetAwardEmoji: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    return { status: 201, body: presentAwards(ctx, [notes.award(ctx, project, noteable, input.name)])[0] }
  },

  deleteSnippetAwardEmoji: (input, ctx) => {
    notes.removeAward(ctx, notes.findAward(ctx, target(ctx, input).noteable, input.award_id))
    return { status: 204 }
  },

  listSnippetNoteAwardEmoji: (input, ctx) => {
    const { rows, total } = noteAwards.listNoteAwards(ctx, noteTarget(ctx, input).note)
    return { status: 200, body: presentNoteAwards(ctx, rows), total }
  },

  getSnippetNoteAwardEmoji: (input, ctx) =>
    ({ status: 200, body: presentNoteAwards(ctx, [noteAwards.findNoteAward(ctx, noteTarget(ctx, input).note, input.award_id)])[0] }),

  createSnippetNoteAwardEmoji: (input, ctx) => {
    const { project, note } = noteTarget(ctx, input)
    return { status: 201, body: presentNoteAwards(ctx, [noteAwards.awardNote(ctx, project, note, input.name)])[0] }
  },

  deleteSnippetNoteAwardEmoji: (input, ctx) => {
    noteAwards.removeNoteAward(ctx, noteAwards.findNoteAward(ctx, noteTarget(ctx, input).note, input.award_id))
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.snippetNotes>
