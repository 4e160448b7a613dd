// Notes on issues.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentAward, presentNote } from '../present/issues.js'
import { findVisibleIssue } from '../services/issues.js'
import * as notes from '../services/notes.js'
import { findVisibleProject } from '../services/projects.js'

const target = (ctx: RequestContext, input: { id: string; issue_iid: number }) => {
  const project = findVisibleProject(ctx, input.id)
  return { project, issue: findVisibleIssue(ctx, project, input.issue_iid) }
}

const presentAll = (ctx: RequestContext, rows: notes.NoteRow[], issue: { id: number; iid: number }) =>
  notes.withAuthors(ctx, rows).map(({ note, author }) => presentNote(note, author, issue, ctx))

export const noteHandlers = {
  listIssueNotes: (input, ctx) => {
    const { issue } = target(ctx, input)
    const { rows, total } = notes.listNotes(ctx, issue, input)
    return { status: 200, body: presentAll(ctx, rows, issue), total }
  },

  getIssueNote: (input, ctx) => {
    const { issue } = target(ctx, input)
    return { status: 200, body: presentAll(ctx, [notes.findNote(ctx, issue, input.note_id)], issue)[0] }
  },

  createIssueNote: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    const created = notes.createNote(ctx, project, issue, input)
    if (created.kind === 'award') return { status: 201, body: presentAward(created.award, ctx.user!, ctx) }
    return { status: 201, body: presentAll(ctx, [created.note], issue)[0] }
  },

  editIssueNote: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    const note = notes.editNote(ctx, project, issue, notes.findNote(ctx, issue, input.note_id), input.body)
    return { status: 200, body: presentAll(ctx, [note], issue)[0] }
  },

  deleteIssueNote: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    notes.deleteNote(ctx, project, issue, notes.findNote(ctx, issue, input.note_id))
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.notes>
