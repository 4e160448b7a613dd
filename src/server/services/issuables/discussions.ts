// Discussions on any noteable kind: threads grouped by discussion_id, replies, diff positions checked against the diff,
// and the resolution of merge request threads (GitLab's ResolvableNote and ResolvableDiscussion rules).
import type { PositionInput } from '../../../contract/endpoints/discussions.js'
import { badRequest, CollabError, forbidden, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { diffBetween } from '../../git/diff.js'
import { resolveCommit } from '../../git/read.js'
import { DEVELOPER, effectiveProjectLevel, GUEST } from '../../policy.js'
import { transaction } from '../../store/db.js'
import * as store from '../../store/discussions.js'
import type { NoteRow } from '../../store/notes.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { diffHasPosition } from '../repository/commit-comments.js'
import type { Noteable } from './discussion.js'
import * as notes from './notes.js'
import { commitOr404, gitdirOf, requireReadCode } from '../repository/repository.js'

export interface Discussion { id: string; notes: NoteRow[] }

/** Notes grouped by discussion, in the order of `ids`. */
function grouped(rows: NoteRow[], ids: string[]): Discussion[] {
  const byId = new Map(ids.map((id) => [id, [] as NoteRow[]]))
  for (const row of rows) byId.get(row.discussion_id)?.push(row)
  return ids.map((id) => ({ id, notes: byId.get(id)! }))
}

/** A page of discussions; a commit nobody commented on has none (and no noteable yet). */
export function listDiscussions(ctx: RequestContext, n: Noteable | null): { discussions: Discussion[]; total: number } {
  if (!n) return { discussions: [], total: 0 }
  const { ids, total } = store.listDiscussionIds(ctx.app.db, n.row.id, { limit: ctx.page.limit, offset: ctx.page.offset })
  return { discussions: grouped(store.notesOfDiscussions(ctx.app.db, n.row.id, ids), ids), total }
}

/** One discussion; 404 `Discussion` (or `Notes`, as the notes list of an unknown discussion answers). */
export function findDiscussion(ctx: RequestContext, n: Noteable | null, id: string, what: 'Discussion' | 'Notes' = 'Discussion'): Discussion {
  const rows = n ? store.notesOfDiscussions(ctx.app.db, n.row.id, [id]) : []
  if (!rows.length) throw notFound(what)
  return { id, notes: rows }
}

/** A note of the noteable, whichever discussion the path names (GitLab finds it among the noteable's notes). */
export function findNote(ctx: RequestContext, n: Noteable | null, id: number): NoteRow {
  if (!n) throw notFound('Note')
  return notes.findNoteOf(ctx, n, id)
}

/** The commit's noteable, when the caller may read the code; null until someone comments. */
export async function commitNoteable(ctx: RequestContext, p: ProjectView, rev: string): Promise<{ sha: string; noteable: Noteable | null }> {
  requireReadCode(ctx, p)
  const sha = await commitOr404(ctx, p, rev)
  const row = store.findCommitNoteable(ctx.app.db, p.id, sha)
  return { sha, noteable: row ? asNoteable(row) : null }
}

const asNoteable = (row: store.CommitNoteableRow): Noteable => ({ kind: 'Commit', row: store.commitAsNoteable(row) })

/** The commit's noteable, created with its first note. */
export const ensureCommitNoteable = (ctx: RequestContext, p: ProjectView, sha: string): Noteable =>
  asNoteable(store.ensureCommitNoteable(ctx.app.db, p.id, sha, nowIso(ctx)))

const placementFailed = () =>
  new CollabError('NOTE_INVALID', 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}', { status: 400 })

/** The stored position of a DiffNote: its shas and type are required, and its line must be on the diff. */
export async function checkedPosition(ctx: RequestContext, p: ProjectView, pos: PositionInput): Promise<string> {
  const missing = (['base_sha', 'start_sha', 'head_sha', 'position_type'] as const).filter((k) => pos[k] === undefined)
  if (missing.length) {
    const error = missing.map((k) => `position[${k}] is missing`).join(', ')
    throw new CollabError('POSITION_MISSING', error, { status: 400, body: { error } })
  }
  const oldPath = pos.old_path ?? pos.new_path ?? null
  const newPath = pos.new_path ?? pos.old_path ?? null
  const oldLine = pos.old_line ?? null
  const newLine = pos.new_line ?? null
  if (pos.position_type === 'text') {
    const gitdir = gitdirOf(ctx, p)
    const [base, head] = [await resolveCommit(gitdir, pos.base_sha!), await resolveCommit(gitdir, pos.head_sha!)]
    if (!base || !head) throw placementFailed()
    const files = await diffBetween(gitdir, base, head)
    const file = files.find((f) => f.newPath === newPath && f.oldPath === oldPath)
    if (!file || (oldLine === null && newLine === null) || !diffHasPosition(file.diff, oldLine, newLine)) throw placementFailed()
  }
  const where = pos.position_type === 'text'
    ? { old_line: oldLine, new_line: newLine, line_range: pos.line_range ?? null }
    : { width: pos.width ?? null, height: pos.height ?? null, x: pos.x ?? null, y: pos.y ?? null }
  return JSON.stringify({
    base_sha: pos.base_sha, start_sha: pos.start_sha, head_sha: pos.head_sha, old_path: oldPath, new_path: newPath,
    position_type: pos.position_type, ...where,
  })
}

/**
 * Starts a thread: a DiffNote when it has a position (merge requests and commits), else a DiscussionNote. The noteable
 * comes after the position's check, so a refused note on a commit leaves no commit noteable behind.
 */
export async function createDiscussion(ctx: RequestContext, p: ProjectView, noteable: Noteable | (() => Noteable), input: { body: string; created_at?: string; position?: PositionInput }): Promise<Discussion> {
  const position = input.position ? await checkedPosition(ctx, p, input.position) : undefined
  const db = ctx.app.db
  const { n, created } = transaction(db, () => {
    const n = typeof noteable === 'function' ? noteable() : noteable
    return { n, created: notes.createNote(ctx, p, n, input, position ? { type: 'DiffNote', position } : { type: 'DiscussionNote' }) }
  })
  const note = (created as Extract<notes.Created, { kind: 'note' }>).note
  return findDiscussion(ctx, n, note.discussion_id)
}

/** The kinds whose individual notes take replies (GitLab's replyable_types); a system note never does. */
const REPLYABLE = new Set(['Issue', 'MergeRequest'])

/**
 * A reply takes its discussion's type and position (GitLab's reply_attributes); an individual note's discussion
 * becomes a thread first (convert_to_discussion!).
 */
export function replyTo(ctx: RequestContext, p: ProjectView, n: Noteable | null, discussionId: string, input: { body: string; created_at?: string }): NoteRow {
  const [first] = findDiscussion(ctx, n, discussionId).notes
  if (!n) throw notFound('Discussion')
  if (first.type === null && (first.system === 1 || !REPLYABLE.has(n.kind))) throw badRequest('Discussion can not be replied to.')
  const db = ctx.app.db
  return transaction(db, () => {
    store.convertToThread(db, n.row.id, discussionId)
    const thread = { type: first.type ?? 'DiscussionNote', position: first.position ?? undefined, discussion_id: discussionId }
    return (notes.createNote(ctx, p, n, input, thread) as Extract<notes.Created, { kind: 'note' }>).note
  })
}

const isResolvable = (n: Noteable, note: NoteRow) => n.kind === 'MergeRequest' && note.system === 0 && (note.type === 'DiscussionNote' || note.type === 'DiffNote')

/** Developers resolve, and so do the noteable's author (and a note's own author); on a locked noteable, members only. */
export function mayResolve(ctx: RequestContext, p: ProjectView, n: Noteable, noteAuthorId?: number): boolean {
  const user = ctx.user
  if (!user) return false
  const level = effectiveProjectLevel(ctx, p)
  if (n.row.discussion_locked && level < GUEST) return false
  return level >= DEVELOPER || n.row.author_id === user.id || noteAuthorId === user.id
}

/** `PUT …/notes/:note_id` takes exactly one of body and resolved, as Grape's exactly_one_of answers. */
export function editOrResolve(ctx: RequestContext, p: ProjectView, n: Noteable, note: NoteRow, input: { body?: string; resolved?: boolean }): NoteRow {
  const given = [input.body !== undefined, input.resolved !== undefined].filter(Boolean).length
  if (given !== 1) {
    const error = given ? 'body, resolved are mutually exclusive' : 'body, resolved are missing, exactly one parameter must be provided'
    throw new CollabError('PARAMS_EXCLUSIVE', error, { status: 400, body: { error } })
  }
  if (input.body !== undefined) return notes.editNote(ctx, p, n, note, input.body)
  if (!mayResolve(ctx, p, n, note.author_id)) throw forbidden()
  if (!isResolvable(n, note)) throw badRequest('Note is not resolvable')
  store.setResolved(ctx.app.db, { noteableId: n.row.id, noteId: note.id }, input.resolved ? { userId: ctx.user!.id, at: nowIso(ctx) } : null)
  return notes.findNoteOf(ctx, n, note.id)
}

/** Resolves or unresolves every resolvable note of a thread; 403 for a thread that does not resolve. */
export function resolveDiscussion(ctx: RequestContext, p: ProjectView, n: Noteable, discussionId: string, resolved: boolean): Discussion {
  const discussion = findDiscussion(ctx, n, discussionId)
  if (!discussion.notes.some((note) => isResolvable(n, note)) || !mayResolve(ctx, p, n)) throw forbidden()
  store.setResolved(ctx.app.db, { noteableId: n.row.id, discussionId }, resolved ? { userId: ctx.user!.id, at: nowIso(ctx) } : null)
  return findDiscussion(ctx, n, discussionId)
}

/**
 * Merge requests whose unresolved threads block merging: GitLab's mergeable_discussions_state? is false only when the
 * project has only_allow_merge_if_all_discussions_are_resolved.
 */
export function blockedByDiscussions(ctx: Pick<RequestContext, 'app'>, rows: { id: number; project_id: number }[]): Set<number> {
  const counts = store.unresolvedCounts(ctx.app.db, rows.map((r) => r.id))
  const blocked = new Set<number>()
  for (const r of rows) {
    if (!counts.get(r.id)) continue
    if (findProjectById(ctx.app.db, r.project_id)?.only_allow_merge_if_all_discussions_are_resolved) blocked.add(r.id)
  }
  return blocked
}
