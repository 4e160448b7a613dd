// The application settings row: the values an administrator set, as one JSON object, and its timestamps.
import { stmt, write, type Db } from './db.js'

export interface SettingsRow {
  settings: string
  created_at: string
  updated_at: string
}

export const findSettingsRow = (db: Db) =>
  stmt(db, 'SELECT settings, created_at, updated_at FROM application_settings WHERE id = 1').get() as SettingsRow | undefined

/** Creates the row on first use; a concurrent creator wins and its row is kept. */
export function insertSettingsRow(db: Db, at: string) {
  write(db, 'application_settings', "INSERT OR IGNORE INTO application_settings (id, settings, created_at, updated_at) VALUES (1, '{}', ?, ?)").run(at, at)
}

export function saveSettings(db: Db, settings: Record<string, unknown>, at: string) {
  write(db, 'application_settings', 'UPDATE application_settings SET settings = ?, updated_at = ? WHERE id = 1').run(JSON.stringify(settings), at)
}
