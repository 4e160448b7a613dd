// Access tokens (personal, impersonation, OAuth) and web sessions, looked up by the SHA-256 of the secret.
import { stmt, write, type Db } from './db.js'

export interface TokenRow {
  id: number
  user_id: number
  kind: 'personal' | 'impersonation' | 'oauth'
  name: string
  token_hash: string
  refresh_hash: string | null
  scopes: string
  revoked: number
  expires_at: string | null
  created_at: string
  last_used_at: string | null
  /** Migration 037: what a resource access token is for (GitLab's description). */
  description: string | null
}

export type NewToken = Omit<TokenRow, 'id' | 'revoked' | 'last_used_at' | 'refresh_hash' | 'description'> & { refresh_hash?: string | null; description?: string | null }

export function insertToken(db: Db, t: NewToken): number {
  return Number(write(db, 'tokens', `INSERT INTO tokens (user_id, kind, name, token_hash, refresh_hash, scopes, expires_at, created_at, description)
    VALUES (@user_id, @kind, @name, @token_hash, @refresh_hash, @scopes, @expires_at, @created_at, @description)`)
    .run({ refresh_hash: null, description: null, ...t }).lastInsertRowid)
}

export const findTokenByHash = (db: Db, hash: string) =>
  stmt(db, 'SELECT * FROM tokens WHERE token_hash = ?').get(hash) as TokenRow | undefined

export const findTokenByRefreshHash = (db: Db, hash: string) =>
  stmt(db, 'SELECT * FROM tokens WHERE refresh_hash = ?').get(hash) as TokenRow | undefined

export const findTokenById = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM tokens WHERE id = ?').get(id) as TokenRow | undefined

/** `today` (YYYY-MM-DD) comes from the app clock: SQLite's date('now') would read the wall clock. */
export function listTokens(db: Db, f: { userId?: number; kind: TokenRow['kind']; active?: boolean; today: string; limit: number; offset: number }) {
  const where = ['kind = @kind']
  if (f.userId !== undefined) where.push('user_id = @userId')
  if (f.active === true) where.push('revoked = 0 AND (expires_at IS NULL OR expires_at >= @today)')
  if (f.active === false) where.push('(revoked = 1 OR (expires_at IS NOT NULL AND expires_at < @today))')
  const clause = where.join(' AND ')
  const args = { kind: f.kind, userId: f.userId, today: f.today }
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM tokens WHERE ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM tokens WHERE ${clause} ORDER BY id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as TokenRow[]
  return { rows, total }
}

export function revokeToken(db: Db, id: number) {
  return write(db, 'tokens', 'UPDATE tokens SET revoked = 1 WHERE id = ?').run(id).changes
}

export const touchToken = (db: Db, id: number, at: string) =>
  write(db, 'tokens', 'UPDATE tokens SET last_used_at = ? WHERE id = ?').run(at, id)

export interface SessionRow { id_hash: string; user_id: number; csrf_token: string; created_at: string; expires_at: string }

export const insertSession = (db: Db, s: SessionRow) =>
  write(db, 'sessions', 'INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at) VALUES (@id_hash, @user_id, @csrf_token, @created_at, @expires_at)').run(s)

export const findSession = (db: Db, idHash: string) =>
  stmt(db, 'SELECT * FROM sessions WHERE id_hash = ?').get(idHash) as SessionRow | undefined

export const deleteSession = (db: Db, idHash: string) => write(db, 'sessions', 'DELETE FROM sessions WHERE id_hash = ?').run(idHash)
