// A reviewer's draft notes on a merge request (GitLab's DraftNotes services): written and read only by their author,
// each published as the note it stands for (a thread, a diff thread, or a reply that may resolve its thread), with the
// events and webhooks of a posted note.
import type { PositionInput } from '../../../contract/endpoints/discussions.js'
import { CollabError, forbidden, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { effectiveProjectLevel, GUEST } from '../../policy.js'
import { transaction } from '../../store/db.js'
import * as store from '../../store/draft-notes.js'
import type { ProjectView } from '../../store/projects.js'
import type { Noteable } from '../issuables/discussion.js'
import { checkedPosition, findDiscussion, mayResolve, replyTo, resolveDiscussion } from '../issuables/discussions.js'
import { createNote } from '../issuables/notes.js'

export type { DraftNoteRow } from '../../store/draft-notes.js'

export interface DraftInput {
  note: string
  position?: PositionInput
  in_reply_to_discussion_id?: string
  resolve_discussion?: boolean
  commit_id?: string
}

const blank = () => new CollabError('NOTE_INVALID', 'Note {:note=>["can\'t be blank"]}', { status: 400 })

/** As a note: archived projects take none, and a locked merge request only its members'. */
function requireMayDraft(ctx: RequestContext, p: ProjectView, n: Noteable) {
  if (p.archived) throw forbidden('Project is archived')
  if (n.row.discussion_locked && effectiveProjectLevel(ctx, p) < GUEST) throw forbidden()
}

export const listDraftNotes = (ctx: RequestContext, n: Noteable) => store.draftNotesOf(ctx.app.db, n.row.id, ctx.user!.id)

/** The caller's own draft; anyone else's is not found, as GitLab scopes drafts to their author. */
export function findDraftNote(ctx: RequestContext, n: Noteable, id: number): store.DraftNoteRow {
  const row = store.findDraftNote(ctx.app.db, n.row.id, ctx.user!.id, id)
  if (!row) throw notFound('Draft Note')
  return row
}

export async function createDraftNote(ctx: RequestContext, p: ProjectView, n: Noteable, input: DraftInput): Promise<store.DraftNoteRow> {
  requireMayDraft(ctx, p, n)
  if (!input.note.trim()) throw blank()
  const reply = input.in_reply_to_discussion_id
  if (reply !== undefined && !threadExists(ctx, n, reply)) {
    throw new CollabError('BAD_REQUEST', 'Thread to reply to cannot be found', { status: 400, body: { message: 'Thread to reply to cannot be found' } })
  }
  const position = input.position && !reply ? await checkedPosition(ctx, p, input.position) : null
  const at = nowIso(ctx)
  const id = store.insertDraftNote(ctx.app.db, {
    noteable_id: n.row.id, author_id: ctx.user!.id, note: input.note, discussion_id: reply ?? null,
    resolve_discussion: input.resolve_discussion ? 1 : 0, commit_id: input.commit_id ?? null, position, created_at: at, updated_at: at,
  })
  return findDraftNote(ctx, n, id)
}

export async function updateDraftNote(ctx: RequestContext, p: ProjectView, n: Noteable, draft: store.DraftNoteRow, input: { note?: string; position?: PositionInput }) {
  requireMayDraft(ctx, p, n)
  if (input.note !== undefined && !input.note.trim()) throw blank()
  const position = input.position && !draft.discussion_id ? await checkedPosition(ctx, p, input.position) : draft.position
  store.updateDraftNote(ctx.app.db, draft.id, { note: input.note ?? draft.note, position, updated_at: nowIso(ctx) })
  return findDraftNote(ctx, n, draft.id)
}

export const deleteDraftNote = (ctx: RequestContext, draft: store.DraftNoteRow) => store.deleteDraftNote(ctx.app.db, draft.id)

const threadExists = (ctx: RequestContext, n: Noteable, id: string) => {
  try {
    findDiscussion(ctx, n, id)
    return true
  } catch {
    return false
  }
}

/**
 * One draft becomes its note: a reply (resolving its thread when asked and allowed) or a new thread. A reply whose
 * thread was deleted since starts a thread of its own, so one such draft cannot hold back the rest of the review.
 */
function publish(ctx: RequestContext, p: ProjectView, n: Noteable, d: store.DraftNoteRow) {
  if (d.discussion_id && threadExists(ctx, n, d.discussion_id)) {
    replyTo(ctx, p, n, d.discussion_id, { body: d.note })
    if (d.resolve_discussion && mayResolve(ctx, p, n)) resolveDiscussion(ctx, p, n, d.discussion_id, true)
  } else {
    createNote(ctx, p, n, { body: d.note }, d.position ? { type: 'DiffNote', position: d.position } : { type: 'DiscussionNote' })
  }
  store.deleteDraftNote(ctx.app.db, d.id)
}

export function publishDraftNote(ctx: RequestContext, p: ProjectView, n: Noteable, draft: store.DraftNoteRow) {
  transaction(ctx.app.db, () => publish(ctx, p, n, draft))
}

/** Every draft of the caller's review at once, oldest first, in one transaction. */
export function publishDraftNotes(ctx: RequestContext, p: ProjectView, n: Noteable): number {
  return transaction(ctx.app.db, () => {
    const drafts = listDraftNotes(ctx, n)
    for (const d of drafts) publish(ctx, p, n, d)
    return drafts.length
  })
}
