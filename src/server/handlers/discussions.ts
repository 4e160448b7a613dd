// Discussions on issues, merge requests, project snippets and commits: one set of handlers over each kind's target.
import type { PositionInput } from '../../contract/endpoints/discussions.js'
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentCommitNote, presentDiscussion, type PresentNote } from '../present/discussions.js'
import { presentNote } from '../present/issues.js'
import { presentSnippetNote } from '../present/snippets.js'
import type { Noteable } from '../services/issuables/index.js'
import * as discussions from '../services/issuables/index.js'
import { findVisibleIssue } from '../services/issuables/index.js'
import * as notes from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import { noteableOf } from '../services/snippets/index.js'
import type { ProjectView } from '../store/projects.js'
import { target as mergeRequestTarget } from './merge-requests.js'
import { projectSnippet } from './snippets.js'

/** What every route needs of its noteable: the project, the noteable (a commit may have none yet), its note shape. */
interface Target {
  project: ProjectView
  noteable: Noteable | null
  present: PresentNote<unknown>
  /** The noteable to write to, created on demand (a commit's first note). */
  writable: () => Noteable
}

type Input = { id: string; discussion_id?: string; note_id?: number }

const fixed = (project: ProjectView, noteable: Noteable, present: PresentNote<unknown>): Target =>
  ({ project, noteable, present, writable: () => noteable })

const issueTarget = (ctx: RequestContext, input: Input & { issue_iid: number }) => {
  const project = findVisibleProject(ctx, input.id)
  const issue = findVisibleIssue(ctx, project, input.issue_iid)
  return fixed(project, { kind: 'Issue', row: issue }, ({ note, author }) => presentNote(note, author, issue, ctx))
}

const mergeRequestTargetOf = (ctx: RequestContext, input: Input & { merge_request_iid: number }) => {
  const { project, mr, noteable } = mergeRequestTarget(ctx, input)
  return fixed(project, noteable, ({ note, author, resolvedBy }) => presentNote(note, author, mr, ctx, 'MergeRequest', resolvedBy))
}

const snippetTarget = (ctx: RequestContext, input: Input & { snippet_id: number }) => {
  const { project, snippet } = projectSnippet(ctx, input)
  return fixed(project, noteableOf(snippet), ({ note, author }) => presentSnippetNote(note, author, snippet, ctx))
}

async function commitTarget(ctx: RequestContext, input: Input & { sha: string }): Promise<Target> {
  const project = findVisibleProject(ctx, input.id)
  const { sha, noteable } = await discussions.commitNoteable(ctx, project, input.sha)
  return { project, noteable, present: (n) => presentCommitNote(n, ctx), writable: () => noteable ?? discussions.ensureCommitNoteable(ctx, project, sha) }
}

const presentThread = (ctx: RequestContext, t: Target, d: discussions.Discussion) => presentDiscussion(d.id, notes.withAuthors(ctx, d.notes), t.present)
const presentOne = (ctx: RequestContext, t: Target, note: notes.NoteRow) => t.present(notes.withAuthors(ctx, [note])[0])

/** The eight routes every kind has, over that kind's target. */
function routes<I extends Input>(targetOf: (ctx: RequestContext, input: I) => Target | Promise<Target>) {
  const at = async (input: I, ctx: RequestContext) => targetOf(ctx, input)
  return {
    list: async (input: I, ctx: RequestContext) => {
      const t = await at(input, ctx)
      const { discussions: page, total } = discussions.listDiscussions(ctx, t.noteable)
      return { status: 200, body: page.map((d) => presentThread(ctx, t, d)), total }
    },
    get: async (input: I & { discussion_id: string }, ctx: RequestContext) => {
      const t = await at(input, ctx)
      return { status: 200, body: presentThread(ctx, t, discussions.findDiscussion(ctx, t.noteable, input.discussion_id)) }
    },
    create: async (input: I & { body: string; created_at?: string; position?: PositionInput }, ctx: RequestContext) => {
      const t = await at(input, ctx)
      return { status: 201, body: presentThread(ctx, t, await discussions.createDiscussion(ctx, t.project, t.writable, input)) }
    },
    notes: async (input: I & { discussion_id: string }, ctx: RequestContext) => {
      const t = await at(input, ctx)
      const d = discussions.findDiscussion(ctx, t.noteable, input.discussion_id, 'Notes')
      return { status: 200, body: notes.withAuthors(ctx, d.notes).map(t.present) }
    },
    addNote: async (input: I & { discussion_id: string; body: string; created_at?: string }, ctx: RequestContext) => {
      const t = await at(input, ctx)
      return { status: 201, body: presentOne(ctx, t, discussions.replyTo(ctx, t.project, t.noteable, input.discussion_id, input)) }
    },
    getNote: async (input: I & { note_id: number }, ctx: RequestContext) => {
      const t = await at(input, ctx)
      return { status: 200, body: presentOne(ctx, t, discussions.findNote(ctx, t.noteable, input.note_id)) }
    },
    editNote: async (input: I & { note_id: number; body?: string; resolved?: boolean }, ctx: RequestContext) => {
      const t = await at(input, ctx)
      const note = discussions.findNote(ctx, t.noteable, input.note_id)
      return { status: 200, body: presentOne(ctx, t, discussions.editOrResolve(ctx, t.project, t.noteable!, note, input)) }
    },
    deleteNote: async (input: I & { note_id: number }, ctx: RequestContext) => {
      const t = await at(input, ctx)
      notes.deleteNote(ctx, t.project, t.noteable!, discussions.findNote(ctx, t.noteable, input.note_id))
      return { status: 204 as const }
    },
  }
}

const issue = routes(issueTarget)
const mr = routes(mergeRequestTargetOf)
const snippet = routes(snippetTarget)
const commit = routes(commitTarget)

export const discussionHandlers = {
  listIssueDiscussions: issue.list, getIssueDiscussion: issue.get, createIssueDiscussion: issue.create,
  listIssueDiscussionNotes: issue.notes, addIssueDiscussionNote: issue.addNote, getIssueDiscussionNote: issue.getNote,
  editIssueDiscussionNote: issue.editNote, deleteIssueDiscussionNote: issue.deleteNote,

  listMergeRequestDiscussions: mr.list, getMergeRequestDiscussion: mr.get, createMergeRequestDiscussion: mr.create,
  listMergeRequestDiscussionNotes: mr.notes, addMergeRequestDiscussionNote: mr.addNote, getMergeRequestDiscussionNote: mr.getNote,
  editMergeRequestDiscussionNote: mr.editNote, deleteMergeRequestDiscussionNote: mr.deleteNote,
  resolveMergeRequestDiscussion: (input, ctx) => {
    const t = mergeRequestTargetOf(ctx, input)
    return { status: 200, body: presentThread(ctx, t, discussions.resolveDiscussion(ctx, t.project, t.noteable!, input.discussion_id, input.resolved)) }
  },

  listSnippetDiscussions: snippet.list, getSnippetDiscussion: snippet.get, createSnippetDiscussion: snippet.create,
  listSnippetDiscussionNotes: snippet.notes, addSnippetDiscussionNote: snippet.addNote, getSnippetDiscussionNote: snippet.getNote,
  editSnippetDiscussionNote: snippet.editNote, deleteSnippetDiscussionNote: snippet.deleteNote,

  listCommitDiscussions: commit.list, getCommitDiscussion: commit.get, createCommitDiscussion: commit.create,
  listCommitDiscussionNotes: commit.notes, addCommitDiscussionNote: commit.addNote, getCommitDiscussionNote: commit.getNote,
  editCommitDiscussionNote: commit.editNote, deleteCommitDiscussionNote: commit.deleteNote,
} satisfies Handlers<typeof contract.discussions>
