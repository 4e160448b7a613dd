// Notes on any noteable (issues, merge requests): list, read, comment (an award emoji alone awards it), edit and delete,
// with locked discussions.
import { createRequire } from 'node:module'
import { CollabError, forbidden, notFound, unauthorized } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canSetIssueHistory, effectiveProjectLevel, GUEST, MAINTAINER } from '../../policy.js'
import { usersByIds } from '../../store/issues.js'
import { updateNoteable } from '../../store/noteables.js'
import type { Noteable } from './discussion.js'
import * as store from '../../store/notes.js'
import type { ProjectView } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import { emitHookEvent } from '../hooks/webhook-events.js'
import { transaction } from '../../store/db.js'

export type { AwardRow, NoteRow } from '../../store/notes.js'

// GitLab's award names are gemoji's names and aliases, with `+1`/`-1` stored as thumbsup/thumbsdown, and the
// emojione names its emoji picker offers where gemoji names the emoji otherwise (slight_smile for slightly_smiling_face).
const ALIASES: Record<string, string> = { '+1': 'thumbsup', '-1': 'thumbsdown' }
const GITLAB_NAMES = ['slight_smile', 'upside_down', 'medal', 'party_popper', 'hugging', 'nerd', 'rolling_eyes']
// gemoji's table loads with the first emoji-only note or award, not with the server: importing it cost every start
// of `collab serve` about 12 ms.
let emoji: Set<string> | undefined
const emojiNames = () => (emoji ??= new Set([
  ...(createRequire(import.meta.url)('gemoji') as typeof import('gemoji')).gemoji.flatMap((e) => e.names),
  ...GITLAB_NAMES,
]))

/** The award name when the whole body is one emoji such as `:thumbsup:`, else null. */
export function awardName(body: string): string | null {
  const m = body.trim().match(/^:([\w+-]+):$/)
  if (!m) return null
  const name = ALIASES[m[1]] ?? m[1]
  return emojiNames().has(name) ? name : null
}

export function findNoteOf(ctx: RequestContext, n: Noteable, id: number): store.NoteRow {
  const note = store.findNote(ctx.app.db, n.row.id, id)
  if (!note) throw notFound('Note')
  return note
}

export const listNotes = (ctx: RequestContext, n: Noteable, input: { sort?: 'asc' | 'desc'; order_by?: 'created_at' | 'updated_at' }) =>
  store.listNotes(ctx.app.db, n.row.id, { orderBy: input.order_by ?? 'created_at', sort: input.sort ?? 'desc', limit: ctx.page.limit, offset: ctx.page.offset })

/** Notes with their authors (and who resolved them), for presenting. */
export function withAuthors(ctx: RequestContext, rows: store.NoteRow[]): { note: store.NoteRow; author: UserRow; resolvedBy: UserRow | null }[] {
  const users = usersByIds(ctx.app.db, rows.flatMap((n) => (n.resolved_by_id === null ? [n.author_id] : [n.author_id, n.resolved_by_id])))
  return rows.map((note) => ({ note, author: users.get(note.author_id)!, resolvedBy: note.resolved_by_id === null ? null : users.get(note.resolved_by_id) ?? null }))
}

/** Award emoji with the users who gave them, for presenting. */
export function awardsWithUsers<A extends { user_id: number }>(ctx: RequestContext, rows: A[]): { award: A; user: UserRow }[] {
  const users = usersByIds(ctx.app.db, rows.map((a) => a.user_id))
  return rows.map((award) => ({ award, user: users.get(award.user_id)! }))
}

/** GitLab renders note model errors as `Note {:note=>["can't be blank"]}` (Ruby's inspect). */
const blankNote = () => new CollabError('NOTE_INVALID', 'Note {:note=>["can\'t be blank"]}', { status: 400 })

/** On a locked discussion only project members comment or edit; archived projects take no comments. */
function requireMayComment(ctx: RequestContext, p: ProjectView, n: Noteable) {
  if (p.archived) throw forbidden('Project is archived')
  if (n.row.discussion_locked && effectiveProjectLevel(ctx, p) < GUEST) throw forbidden()
}

export type Created = { kind: 'note'; note: store.NoteRow } | { kind: 'award'; award: store.AwardRow }

/** Where a new note goes: a new thread (its type and diff position) or a reply in an existing discussion. */
export interface Threading { type: store.NoteType; position?: string; discussion_id?: string }

export function createNote(ctx: RequestContext, p: ProjectView, n: Noteable, input: { body: string; created_at?: string }, thread?: Threading): Created {
  requireMayComment(ctx, p, n)
  if (!input.body.trim()) throw blankNote()
  const db = ctx.app.db
  const user = ctx.user!
  const now = nowIso(ctx)
  const emoji = thread ? null : awardName(input.body)
  if (emoji) {
    // GitLab toggles: awarding the same emoji again takes it back.
    const existing = store.findAward(db, n.row.id, user.id, emoji)
    if (existing) {
      store.deleteAward(db, existing.id)
      return { kind: 'award', award: existing }
    }
    return { kind: 'award', award: store.insertAward(db, { noteable_id: n.row.id, user_id: user.id, name: emoji, created_at: now, updated_at: now }) }
  }
  const at = input.created_at && canSetIssueHistory(ctx, p) ? new Date(input.created_at).toISOString() : now
  const id = transaction(db, () => {
    const noteId = store.insertNote(db, { noteable_id: n.row.id, author_id: user.id, body: input.body, system: 0, created_at: at, updated_at: at, ...thread })
    updateNoteable(db, n.kind, n.row.id, { updated_at: now })
    return noteId
  })
  emitHookEvent(ctx.app, { kind: 'note', projectId: p.id, userId: user.id, noteId: id, noteableId: n.row.id, noteableKind: n.kind })
  return { kind: 'note', note: store.findNote(db, n.row.id, id)! }
}

export function findAward(ctx: RequestContext, n: Noteable, id: number): store.AwardRow {
  const award = store.findAwardById(ctx.app.db, n.row.id, id)
  if (!award) throw notFound('Award Emoji')
  return award
}

export const listAwards = (ctx: RequestContext, n: Noteable) => store.listAwards(ctx.app.db, n.row.id, { limit: ctx.page.limit, offset: ctx.page.offset })

/** The emoji `POST …/award_emoji` names: a known name (an alias counts); GitLab's model errors as 404 bodies. */
export function emojiToAward(p: ProjectView, name: string): string {
  if (p.archived) throw forbidden('Project is archived')
  const emoji = awardName(`:${name}:`)
  if (!emoji) throw notFound('Award Emoji {:name=>["is not a valid emoji name"]}', 'AWARD_EMOJI_NOT_FOUND')
  return emoji
}

export const alreadyAwarded = () => notFound('Award Emoji {:name=>["has already been taken"]}', 'AWARD_EMOJI_NOT_FOUND')

/** GitLab's IssuablePolicy: on a locked discussion only project members award, others get the unawardable's 404. */
export function requireMayAward(ctx: RequestContext, p: ProjectView, n: Noteable) {
  if (n.row.discussion_locked && effectiveProjectLevel(ctx, p) < GUEST) throw notFound('Award Emoji')
}

/** `POST …/award_emoji` on a noteable, once per user and name. */
export function award(ctx: RequestContext, p: ProjectView, n: Noteable, name: string): store.AwardRow {
  requireMayAward(ctx, p, n)
  const emoji = emojiToAward(p, name)
  if (store.findAward(ctx.app.db, n.row.id, ctx.user!.id, emoji)) throw alreadyAwarded()
  const now = nowIso(ctx)
  return store.insertAward(ctx.app.db, { noteable_id: n.row.id, user_id: ctx.user!.id, name: emoji, created_at: now, updated_at: now })
}

/** Users take back their own awards; administrators anyone's. GitLab answers others 401 (`unauthorized!`), not 403. */
export function removeAward(ctx: RequestContext, a: store.AwardRow) {
  if (a.user_id !== ctx.user!.id && !ctx.user!.is_admin) throw unauthorized()
  store.deleteAward(ctx.app.db, a.id)
}

/** Authors edit and delete their own notes, maintainers anyone's; system notes are nobody's to change. */
function requireMayChange(ctx: RequestContext, p: ProjectView, n: Noteable, note: store.NoteRow) {
  requireMayComment(ctx, p, n)
  if (note.system) throw forbidden()
  if (note.author_id !== ctx.user!.id && effectiveProjectLevel(ctx, p) < MAINTAINER) throw forbidden()
}

export function editNote(ctx: RequestContext, p: ProjectView, n: Noteable, note: store.NoteRow, body: string) {
  requireMayChange(ctx, p, n, note)
  if (!body.trim()) throw blankNote()
  const db = ctx.app.db
  const now = nowIso(ctx)
  transaction(db, () => {
    store.updateNoteBody(db, note.id, body, now)
    updateNoteable(db, n.kind, n.row.id, { updated_at: now })
  })
  return store.findNote(db, n.row.id, note.id)!
}

export function deleteNote(ctx: RequestContext, p: ProjectView, n: Noteable, note: store.NoteRow) {
  requireMayChange(ctx, p, n, note)
  transaction(ctx.app.db, () => store.deleteNoteRow(ctx.app.db, note))
}
