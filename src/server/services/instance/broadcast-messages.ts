// Broadcast messages: GitLab's defaults (now .. now + 1 hour, a banner), its validations, and what shows right now.
import { CollabError, validationFailed } from '../../../core/errors.js'
import { wildcardMatcher } from '../../../core/wildcard.js'
import type { AppDeps, RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import * as store from '../../store/broadcast-messages.js'

export type { BroadcastMessageRow } from '../../store/broadcast-messages.js'

const HOUR = 60 * 60 * 1000
const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i
const ACCESS_LEVELS = new Set([10, 20, 30, 40, 50])

export interface BroadcastMessageInput {
  message?: string; starts_at?: string; ends_at?: string; color?: string; font?: string; target_access_levels?: number[]
  target_path?: string; broadcast_type?: 'banner' | 'notification'; dismissable?: boolean; theme?: string
}

const iso = (s: string) => new Date(s).toISOString()

/** The model's validations, answered as GitLab's render_validation_error! does. */
function check(row: Pick<store.BroadcastMessageRow, 'message' | 'starts_at' | 'ends_at' | 'color' | 'font' | 'target_access_levels'>) {
  const errors: Record<string, string[]> = {}
  if (!row.message.trim()) errors.message = ["can't be blank"]
  for (const field of ['color', 'font'] as const) {
    const v = row[field]
    if (v !== null && v !== '' && !COLOR.test(v)) errors[field] = ['must be a valid color code']
  }
  if (row.ends_at <= row.starts_at) errors.ends_at = ['must be after start date']
  if ((JSON.parse(row.target_access_levels) as number[]).some((l) => !ACCESS_LEVELS.has(l))) errors.target_access_levels = ['is invalid']
  if (Object.keys(errors).length) throw validationFailed(errors)
}

export const listBroadcastMessages = (ctx: RequestContext) =>
  store.listBroadcastMessages(ctx.app.db, { limit: ctx.page.limit, offset: ctx.page.offset })

export function findBroadcastMessage(ctx: RequestContext, id: number) {
  const row = store.findBroadcastMessage(ctx.app.db, id)
  // ActiveRecord's miss, as GitLab's find answers it.
  if (!row) throw new CollabError('BROADCAST_MESSAGE_NOT_FOUND', '404 Not found', { status: 404 })
  return row
}

const columnsOf = (input: BroadcastMessageInput): Partial<store.BroadcastMessageFields> => {
  const out: Partial<store.BroadcastMessageFields> = {}
  if (input.message !== undefined) out.message = input.message
  if (input.starts_at !== undefined) out.starts_at = iso(input.starts_at)
  if (input.ends_at !== undefined) out.ends_at = iso(input.ends_at)
  if (input.color !== undefined) out.color = input.color
  if (input.font !== undefined) out.font = input.font
  if (input.target_access_levels !== undefined) out.target_access_levels = JSON.stringify(input.target_access_levels)
  if (input.target_path !== undefined) out.target_path = input.target_path
  if (input.broadcast_type !== undefined) out.broadcast_type = input.broadcast_type
  if (input.dismissable !== undefined) out.dismissable = input.dismissable ? 1 : 0
  if (input.theme !== undefined) out.theme = input.theme
  return out
}

export function createBroadcastMessage(ctx: RequestContext, input: BroadcastMessageInput & { message: string }) {
  const now = ctx.app.clock.now()
  const row: store.BroadcastMessageFields = {
    message: input.message, starts_at: now.toISOString(), ends_at: new Date(now.getTime() + HOUR).toISOString(),
    color: null, font: null, target_access_levels: '[]', target_path: null, broadcast_type: 'banner', dismissable: 0, theme: 'indigo',
    created_at: now.toISOString(), updated_at: now.toISOString(), ...columnsOf(input),
  }
  check(row)
  return store.findBroadcastMessage(ctx.app.db, store.insertBroadcastMessage(ctx.app.db, row))!
}

export function updateBroadcastMessage(ctx: RequestContext, id: number, input: BroadcastMessageInput) {
  const row = findBroadcastMessage(ctx, id)
  const patch = { ...columnsOf(input), updated_at: nowIso(ctx) }
  check({ ...row, ...patch })
  store.updateBroadcastMessage(ctx.app.db, id, patch)
  return store.findBroadcastMessage(ctx.app.db, id)!
}

export function deleteBroadcastMessage(ctx: RequestContext, id: number) {
  const row = findBroadcastMessage(ctx, id)
  store.deleteBroadcastMessage(ctx.app.db, id)
  return row
}

/** Whether a message shows at this moment. */
export const isActive = (app: AppDeps, row: Pick<store.BroadcastMessageRow, 'starts_at' | 'ends_at'>) => {
  const now = app.clock.now().toISOString()
  return row.starts_at <= now && now < row.ends_at
}

/**
 * The banners a web page at `path` shows now: those for every path or whose target_path matches. Messages aimed at
 * members of some access levels are left out (GitLab shows them on the pages of projects and groups where the viewer
 * has that level; the pages here do not pass one).
 */
export const bannersFor = (app: AppDeps, path: string) =>
  store.currentBroadcastMessages(app.db, app.clock.now().toISOString(), 'banner')
    .filter((m) => (JSON.parse(m.target_access_levels) as number[]).length === 0 && (!m.target_path || wildcardMatcher(m.target_path)(path)))
