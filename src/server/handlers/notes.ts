// Notes on issues.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentAward, presentNote } from '../present/issues.js'
import { findVisibleIssue } from '../services/issuables/index.js'
import * as notes from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'

const target = (ctx: RequestContext, input: { id: string; issue_iid: number }) => {
  const project = findVisibleProject(ctx, input.id)
  const issue = findVisibleIssue(ctx, project, input.issue_iid)
  return { project, issue, noteable: { kind: 'Issue' as const, row: issue } }
}

const presentAll = (ctx: RequestContext, rows: notes.NoteRow[], issue: { id: number; iid: number }) =>
  notes.withAuthors(ctx, rows).map(({ note, author }) => presentNote(note, author, issue, ctx))

export const noteHandlers = {
  listIssueNotes: (input, ctx) => {
    const { issue, noteable } = target(ctx, input)
    const { rows, total } = notes.listNotes(ctx, noteable, input)
    return { status: 200, body: presentAll(ctx, rows, issue), total }
  },

  getIssueNote: (input, ctx) => {
    const { issue, noteable } = target(ctx, input)
    return { status: 200, body: presentAll(ctx, [notes.findNote(ctx, noteable, input.note_id)], issue)[0] }
  },

  createIssueNote: (input, ctx) => {
    const { project, issue, noteable } = target(ctx, input)
    const created = notes.createNote(ctx, project, noteable, input)
    if (created.kind === 'award') return { status: 201, body: presentAward(created.award, ctx.user!, ctx) }
    return { status: 201, body: presentAll(ctx, [created.note], issue)[0] }
  },

  editIssueNote: (input, ctx) => {
    const { project, issue, noteable } = target(ctx, input)
    const note = notes.editNote(ctx, project, noteable, notes.findNote(ctx, noteable, input.note_id), input.body)
    return { status: 200, body: presentAll(ctx, [note], issue)[0] }
  },

  deleteIssueNote: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    notes.deleteNote(ctx, project, noteable, notes.findNote(ctx, noteable, input.note_id))
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.notes>
