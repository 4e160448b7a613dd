// Secondary emails (GitLab's Email model) and the user status (Users::SetStatusService).
import { notFound, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import * as store from '../../store/user-keys.js'
import * as users from '../../store/users.js'

export const listEmails = (ctx: RequestContext, userId: number) =>
  store.listForUser<store.EmailRow>(ctx.app.db, 'user_emails', userId, { limit: ctx.page.limit, offset: ctx.page.offset })

export function findEmail(ctx: RequestContext, userId: number, id: number) {
  const row = store.findForUser<store.EmailRow>(ctx.app.db, 'user_emails', userId, id)
  if (!row) throw notFound('Email')
  return row
}

export function deleteEmail(ctx: RequestContext, userId: number, id: number) {
  findEmail(ctx, userId, id)
  store.deleteRow(ctx.app.db, 'user_emails', id)
}

/** A secondary email may not be anyone's primary or secondary email, the owner's own primary included. */
export function addEmail(ctx: RequestContext, userId: number, email: string, confirmed: boolean): store.EmailRow {
  const db = ctx.app.db
  const value = email.trim()
  if (!/^[^@\s]+@[^@\s]+$/.test(value)) throw validationFailed({ email: ['is invalid'] })
  if (users.findUserByEmail(db, value) || store.findEmail(db, value)) throw validationFailed({ email: ['has already been taken'] })
  const at = nowIso(ctx)
  const id = store.insertRow(db, 'user_emails', { user_id: userId, email: value, confirmed_at: confirmed ? at : null, created_at: at })
  return store.findById<store.EmailRow>(db, 'user_emails', id)!
}

/** The user's primary email or one of their confirmed secondary ones: what public, commit and notification emails may be. */
export function ownsVerifiedEmail(ctx: RequestContext, user: users.UserRow, email: string) {
  if (email.toLowerCase() === user.email.toLowerCase()) return true
  const secondary = store.findEmail(ctx.app.db, email)
  return secondary !== undefined && secondary.user_id === user.id && secondary.confirmed_at !== null
}

const CLEAR_AFTER: Record<string, number> = {
  '30_minutes': 30 * 60, '3_hours': 3 * 3600, '8_hours': 8 * 3600, '1_day': 86400, '3_days': 3 * 86400, '7_days': 7 * 86400, '30_days': 30 * 86400,
}
const DEFAULT_EMOJI = 'speech_balloon'

export interface StatusInput { emoji?: string; message?: string; availability?: 'not_set' | 'busy'; clear_status_after?: string }

/** The status, or null once its clear_status_at has passed (GitLab clears them with a cron job; here, on read). */
export function currentStatus(ctx: RequestContext, userId: number): store.StatusRow | null {
  const row = store.findStatus(ctx.app.db, userId)
  if (!row || (row.clear_status_at !== null && row.clear_status_at <= nowIso(ctx))) return null
  return row
}

/** PUT sends every field (missing ones clear); PATCH keeps the stored value of fields left out. */
export function setStatus(ctx: RequestContext, userId: number, input: StatusInput, partial: boolean): store.StatusRow | null {
  const db = ctx.app.db
  const old = partial ? currentStatus(ctx, userId) : null
  const emoji = input.emoji ?? old?.emoji ?? undefined
  const message = input.message ?? old?.message ?? undefined
  const availability = input.availability ?? old?.availability ?? 'not_set'
  if (emoji !== undefined && !/^[a-z0-9_+-]+$/.test(emoji)) throw validationFailed({ emoji: ['does not exist'] })
  if (!emoji && !message && availability === 'not_set') {
    store.clearStatus(db, userId)
    return null
  }
  const after = input.clear_status_after !== undefined ? CLEAR_AFTER[input.clear_status_after] : undefined
  const clearAt = after !== undefined ? new Date(ctx.app.clock.now().getTime() + after * 1000).toISOString() : partial ? old?.clear_status_at ?? null : null
  const row = { user_id: userId, emoji: emoji || DEFAULT_EMOJI, message: message || null, availability, clear_status_at: clearAt }
  store.saveStatus(db, row)
  return row
}
