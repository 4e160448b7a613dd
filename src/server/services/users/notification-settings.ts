// Notification settings: levels and custom events per source, and the global notification email.
import { CollabError, validationFailed } from '../../../core/errors.js'
import { NOTIFICATION_EVENTS } from '../../../contract/fixed-values.js'
import type { RequestContext } from '../../context.js'
import * as store from '../../store/notification-settings.js'
import { ownsVerifiedEmail } from './user-emails-status.js'

const LEVELS = new Set(['disabled', 'participating', 'watch', 'global', 'mention', 'custom'])
// GitLab's column defaults: the pipeline and moved-project mails are on until turned off.
const DEFAULT_EVENTS: Record<string, boolean> = Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, ['failed_pipeline', 'fixed_pipeline', 'moved_project'].includes(e)]))

export interface Source { kind: store.SourceKind; id: number }

export function currentSetting(ctx: RequestContext, source: Source): store.NotificationSettingRow {
  const found = store.findSetting(ctx.app.db, ctx.user!.id, source.kind, source.id)
  return found ?? {
    user_id: ctx.user!.id, source_kind: source.kind, source_id: source.id,
    level: source.kind === 'global' ? 'participating' : 'global', events: '{}', notification_email: null,
  }
}

export type SettingInput = { level?: string; notification_email?: string } & Partial<Record<string, unknown>>

export function updateSetting(ctx: RequestContext, source: Source, input: SettingInput): store.NotificationSettingRow {
  const row = currentSetting(ctx, source)
  // The enum's ArgumentError, which the API passes on as is (lib/api/notification_settings.rb).
  if (input.level !== undefined && !LEVELS.has(input.level)) {
    throw new CollabError('INVALID_LEVEL', `'${input.level}' is not a valid level`, { status: 400 })
  }
  if (input.notification_email !== undefined && !ownsVerifiedEmail(ctx, ctx.user!, input.notification_email)) {
    throw validationFailed({ notification_email: ['must be an email you have verified'] })
  }
  const events = { ...JSON.parse(row.events) as Record<string, boolean> }
  for (const e of NOTIFICATION_EVENTS) if (typeof input[e] === 'boolean') events[e] = input[e] as boolean
  const next = {
    ...row, level: input.level ?? row.level, events: JSON.stringify(events),
    notification_email: input.notification_email ?? row.notification_email,
  }
  store.saveSetting(ctx.app.db, next)
  return next
}

/** `events` only for the custom level, every event with its stored or default value. */
export function presentSetting(row: store.NotificationSettingRow) {
  if (row.level !== 'custom') return { level: row.level }
  return { level: row.level, events: { ...DEFAULT_EVENTS, ...JSON.parse(row.events) as Record<string, boolean> } }
}
