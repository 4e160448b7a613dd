// Award emoji on a note (GitLab's `…/notes/:note_id/award_emoji`), for the notes of any noteable kind.
import { notFound, unauthorized } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import * as store from '../../store/note-awards.js'
import type { ProjectView } from '../../store/projects.js'
import { alreadyAwarded, emojiToAward, type NoteRow } from './notes.js'

export type { NoteAwardRow } from '../../store/note-awards.js'

export const listNoteAwards = (ctx: RequestContext, note: NoteRow) =>
  store.listNoteAwards(ctx.app.db, note.id, { limit: ctx.page.limit, offset: ctx.page.offset })

export function findNoteAward(ctx: RequestContext, note: NoteRow, id: number): store.NoteAwardRow {
  const award = store.findNoteAwardById(ctx.app.db, note.id, id)
  if (!award) throw notFound('Award Emoji')
  return award
}

export function awardNote(ctx: RequestContext, p: ProjectView, note: NoteRow, name: string): store.NoteAwardRow {
  // GitLab's Note#emoji_awardable?: system notes take no awards (AwardEmojis::AddService's message, in the API's 404).
  if (note.system) throw notFound('Award Emoji Awardable cannot be awarded emoji', 'AWARD_EMOJI_NOT_FOUND')
  const emoji = emojiToAward(p, name)
  if (store.findNoteAward(ctx.app.db, note.id, ctx.user!.id, emoji)) throw alreadyAwarded()
  const now = nowIso(ctx)
  return store.insertNoteAward(ctx.app.db, { note_id: note.id, user_id: ctx.user!.id, name: emoji, created_at: now, updated_at: now })
}

/** Users take back their own awards; administrators anyone's. GitLab answers others 401 (`unauthorized!`), not 403. */
export function removeNoteAward(ctx: RequestContext, award: store.NoteAwardRow) {
  if (award.user_id !== ctx.user!.id && !ctx.user!.is_admin) throw unauthorized()
  store.deleteNoteAward(ctx.app.db, award.id)
}
