// A user's SSH keys, GPG keys, secondary emails and status.
import { stmt, write, type Db } from './db.js'

export interface SshKeyRow {
  id: number
  user_id: number
  title: string
  key: string
  fingerprint: string
  fingerprint_sha256: string
  usage_type: string
  created_at: string
  expires_at: string | null
}

export interface GpgKeyRow { id: number; user_id: number; key: string; created_at: string }
export interface EmailRow { id: number; user_id: number; email: string; confirmed_at: string | null; created_at: string }
export interface StatusRow { user_id: number; emoji: string | null; message: string | null; availability: string; clear_status_at: string | null }

export type KeyTable = 'ssh_keys' | 'gpg_keys' | 'user_emails'

interface Page { limit: number; offset: number }

/** One page of a user's rows in one of the per-user tables, oldest first as GitLab lists them. */
export function listForUser<T>(db: Db, table: KeyTable, userId: number, page: Page): { rows: T[]; total: number } {
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`).get(userId) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM ${table} WHERE user_id = ? ORDER BY id LIMIT ? OFFSET ?`).all(userId, page.limit, page.offset) as T[]
  return { rows, total }
}

export const findForUser = <T>(db: Db, table: KeyTable, userId: number, id: number) =>
  stmt(db, `SELECT * FROM ${table} WHERE user_id = ? AND id = ?`).get(userId, id) as T | undefined

export const findById = <T>(db: Db, table: KeyTable, id: number) =>
  stmt(db, `SELECT * FROM ${table} WHERE id = ?`).get(id) as T | undefined

export const deleteRow = (db: Db, table: KeyTable, id: number) => write(db, table, `DELETE FROM ${table} WHERE id = ?`).run(id)

export function insertRow(db: Db, table: KeyTable, row: Record<string, unknown>): number {
  const cols = Object.keys(row)
  return Number(write(db, table, `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(row).lastInsertRowid)
}

export const findSshKeyByFingerprint = (db: Db, sha256: string) =>
  stmt(db, 'SELECT * FROM ssh_keys WHERE fingerprint_sha256 = ?').get(sha256) as SshKeyRow | undefined

export const findSshKeyByMd5 = (db: Db, md5: string) =>
  stmt(db, 'SELECT * FROM ssh_keys WHERE fingerprint = ?').get(md5) as SshKeyRow | undefined

export const findGpgKeyByText = (db: Db, key: string) =>
  stmt(db, 'SELECT * FROM gpg_keys WHERE key = ?').get(key) as GpgKeyRow | undefined

export const findEmail = (db: Db, email: string) =>
  stmt(db, 'SELECT * FROM user_emails WHERE email = ?').get(email) as EmailRow | undefined

export const findStatus = (db: Db, userId: number) =>
  stmt(db, 'SELECT * FROM user_statuses WHERE user_id = ?').get(userId) as StatusRow | undefined

export function saveStatus(db: Db, s: StatusRow) {
  write(db, 'user_statuses', `INSERT INTO user_statuses (user_id, emoji, message, availability, clear_status_at)
    VALUES (@user_id, @emoji, @message, @availability, @clear_status_at)
    ON CONFLICT (user_id) DO UPDATE SET emoji = excluded.emoji, message = excluded.message,
      availability = excluded.availability, clear_status_at = excluded.clear_status_at`).run(s)
}

export const clearStatus = (db: Db, userId: number) => write(db, 'user_statuses', 'DELETE FROM user_statuses WHERE user_id = ?').run(userId)
