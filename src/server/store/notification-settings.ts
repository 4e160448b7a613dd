// Notification settings: one row per user and source (the global one has source 0).
import { stmt, write, type Db } from './db.js'

export type SourceKind = 'global' | 'group' | 'project'

export interface NotificationSettingRow {
  user_id: number
  source_kind: SourceKind
  source_id: number
  level: string
  events: string
  notification_email: string | null
}

export const findSetting = (db: Db, userId: number, kind: SourceKind, sourceId: number) =>
  stmt(db, 'SELECT * FROM notification_settings WHERE user_id = ? AND source_kind = ? AND source_id = ?').get(userId, kind, sourceId) as NotificationSettingRow | undefined

export function saveSetting(db: Db, row: NotificationSettingRow) {
  write(db, 'notification_settings', `INSERT INTO notification_settings (user_id, source_kind, source_id, level, events, notification_email)
    VALUES (@user_id, @source_kind, @source_id, @level, @events, @notification_email)
    ON CONFLICT (user_id, source_kind, source_id) DO UPDATE SET level = excluded.level, events = excluded.events,
      notification_email = excluded.notification_email`).run(row)
}
