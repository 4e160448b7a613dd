// Award emoji on issues and on issue and merge request notes, through the shared discussion layer (services/issuables/notes.ts,
// services/issuables/note-awards.ts); who may see the issue, merge request or note is decided where they are found.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentAward } from '../present/issues.js'
import { presentNoteAward } from '../present/snippets.js'
import type { Noteable } from '../services/issuables/index.js'
import { findVisibleIssue } from '../services/issuables/index.js'
import * as noteAwards from '../services/issuables/index.js'
import * as notes from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import type { ProjectView } from '../store/projects.js'
import { target as mergeRequestTarget } from './merge-requests.js'

const issueTarget = (ctx: RequestContext, input: { id: string; issue_iid: number }) => {
  const project = findVisibleProject(ctx, input.id)
  return { project, noteable: { kind: 'Issue' as const, row: findVisibleIssue(ctx, project, input.issue_iid) } }
}

const presentNoteAwards = (ctx: RequestContext, rows: noteAwards.NoteAwardRow[]) =>
  notes.awardsWithUsers(ctx, rows).map(({ award, user }) => presentNoteAward(award, user, ctx))

type Resolve<I> = (ctx: RequestContext, input: I) => { project: ProjectView; noteable: Noteable }

/** The four award routes of an issue or merge request itself (`…/award_emoji`). */
export function awardableRoutes<I>(resolve: Resolve<I>, type: 'Issue' | 'MergeRequest') {
  const present = (ctx: RequestContext, rows: notes.AwardRow[]) =>
    notes.awardsWithUsers(ctx, rows).map(({ award, user }) => presentAward(award, user, ctx, type))
  return {
    list: (input: I, ctx: RequestContext) => {
      const { rows, total } = notes.listAwards(ctx, resolve(ctx, input).noteable)
      return { status: 200, body: present(ctx, rows), total }
    },
    get: (input: I & { award_id: number }, ctx: RequestContext) =>
      ({ status: 200, body: present(ctx, [notes.findAward(ctx, resolve(ctx, input).noteable, input.award_id)])[0] }),
    create: (input: I & { name: string }, ctx: RequestContext) => {
      const { project, noteable } = resolve(ctx, input)
      return { status: 201, body: present(ctx, [notes.award(ctx, project, noteable, input.name)])[0] }
    },
    remove: (input: I & { award_id: number }, ctx: RequestContext) => {
      notes.removeAward(ctx, notes.findAward(ctx, resolve(ctx, input).noteable, input.award_id))
      return { status: 204 }
    },
  }
}

/** The four award routes of a note (`…/notes/:note_id/award_emoji`) on an issue or merge request. */
export function noteAwardRoutes<I>(resolve: Resolve<I>) {
  const noteTarget = (ctx: RequestContext, input: I & { note_id: number }) => {
    const { project, noteable } = resolve(ctx, input)
    return { project, noteable, note: notes.findNote(ctx, noteable, input.note_id) }
  }
  return {
    list: (input: I & { note_id: number }, ctx: RequestContext) => {
      const { rows, total } = noteAwards.listNoteAwards(ctx, noteTarget(ctx, input).note)
      return { status: 200, body: presentNoteAwards(ctx, rows), total }
    },
    get: (input: I & { note_id: number; award_id: number }, ctx: RequestContext) =>
      ({ status: 200, body: presentNoteAwards(ctx, [noteAwards.findNoteAward(ctx, noteTarget(ctx, input).note, input.award_id)])[0] }),
    create: (input: I & { note_id: number; name: string }, ctx: RequestContext) => {
      const { project, noteable, note } = noteTarget(ctx, input)
      notes.requireMayAward(ctx, project, noteable)
      return { status: 201, body: presentNoteAwards(ctx, [noteAwards.awardNote(ctx, project, note, input.name)])[0] }
    },
    remove: (input: I & { note_id: number; award_id: number }, ctx: RequestContext) => {
      noteAwards.removeNoteAward(ctx, noteAwards.findNoteAward(ctx, noteTarget(ctx, input).note, input.award_id))
      return { status: 204 }
    },
  }
}

const onIssue = awardableRoutes(issueTarget, 'Issue')
const onIssueNote = noteAwardRoutes(issueTarget)
const onMergeRequestNote = noteAwardRoutes(mergeRequestTarget)

export const awardEmojiHandlers = {
  listIssueAwardEmoji: onIssue.list,
  getIssueAwardEmoji: onIssue.get,
  createIssueAwardEmoji: onIssue.create,
  deleteIssueAwardEmoji: onIssue.remove,

  listIssueNoteAwardEmoji: onIssueNote.list,
  getIssueNoteAwardEmoji: onIssueNote.get,
  createIssueNoteAwardEmoji: onIssueNote.create,
  deleteIssueNoteAwardEmoji: onIssueNote.remove,

  listMergeRequestNoteAwardEmoji: onMergeRequestNote.list,
  getMergeRequestNoteAwardEmoji: onMergeRequestNote.get,
  createMergeRequestNoteAwardEmoji: onMergeRequestNote.create,
  deleteMergeRequestNoteAwardEmoji: onMergeRequestNote.remove,
} satisfies Handlers<typeof contract.awardEmoji>
