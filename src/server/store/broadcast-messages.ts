// Broadcast messages: rows scheduled by administrators, read by everyone.
import { stmt, write, type Db } from './db.js'

export interface BroadcastMessageRow {
  id: number
  message: string
  starts_at: string
  ends_at: string
  color: string | null
  font: string | null
  /** JSON array of access levels. */
  target_access_levels: string
  target_path: string | null
  broadcast_type: 'banner' | 'notification'
  dismissable: number
  theme: string
  created_at: string
  updated_at: string
}

export type BroadcastMessageFields = Omit<BroadcastMessageRow, 'id'>

export function listBroadcastMessages(db: Db, f: { limit: number; offset: number }) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM broadcast_messages').get() as { n: number }).n
  const rows = stmt(db, 'SELECT * FROM broadcast_messages ORDER BY id LIMIT ? OFFSET ?').all(f.limit, f.offset) as BroadcastMessageRow[]
  return { rows, total }
}

/** Messages showing at `now` (ISO strings compare in time order). */
export const currentBroadcastMessages = (db: Db, now: string, type: string) =>
  stmt(db, 'SELECT * FROM broadcast_messages WHERE starts_at <= @now AND ends_at > @now AND broadcast_type = @type ORDER BY id LIMIT 20')
    .all({ now, type }) as BroadcastMessageRow[]

export const findBroadcastMessage = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM broadcast_messages WHERE id = ?').get(id) as BroadcastMessageRow | undefined

export function insertBroadcastMessage(db: Db, row: BroadcastMessageFields): number {
  return Number(write(db, 'broadcast_messages', `INSERT INTO broadcast_messages (message, starts_at, ends_at, color, font, target_access_levels, target_path,
      broadcast_type, dismissable, theme, created_at, updated_at)
    VALUES (@message, @starts_at, @ends_at, @color, @font, @target_access_levels, @target_path, @broadcast_type, @dismissable, @theme,
      @created_at, @updated_at)`).run(row).lastInsertRowid)
}

const COLUMNS = new Set(['message', 'starts_at', 'ends_at', 'color', 'font', 'target_access_levels', 'target_path', 'broadcast_type', 'dismissable', 'theme', 'updated_at'])

export function updateBroadcastMessage(db: Db, id: number, patch: Partial<BroadcastMessageFields>) {
  const cols = Object.keys(patch).filter((c) => COLUMNS.has(c))
  if (!cols.length) return
  write(db, 'broadcast_messages', `UPDATE broadcast_messages SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteBroadcastMessage = (db: Db, id: number) => write(db, 'broadcast_messages', 'DELETE FROM broadcast_messages WHERE id = ?').run(id)
