// Users: rows, lookups and inserts.
import { stmt, write, type Db } from './db.js'

export interface UserRow {
  id: number
  username: string
  email: string
  name: string
  password_hash: string | null
  state: 'active' | 'blocked' | 'banned' | 'deactivated'
  is_admin: number
  bio: string
  location: string
  skype: string
  linkedin: string
  twitter: string
  website_url: string
  organization: string
  job_title: string
  note: string | null
  projects_limit: number
  can_create_group: number
  external: number
  private_profile: number
  created_at: string
  last_sign_in_at: string | null
  last_activity_on: string | null
  /** The avatar's file name under the user's avatar directory (migration 014). */
  avatar_path: string | null
  public_email: string | null
  commit_email: string | null
  pronouns: string | null
  theme_id: number
  color_scheme_id: number
  /** Migration 037: null for people, 'project_bot' for the bot user of a project or group access token. */
  user_type: string | null
}

export type NewUser = Pick<UserRow, 'username' | 'email' | 'name' | 'password_hash' | 'created_at'> &
  Partial<Omit<UserRow, 'id' | 'username' | 'email' | 'name' | 'password_hash' | 'created_at' | 'avatar_path'>>

export const findUserById = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined

export const findUserByUsername = (db: Db, username: string) =>
  stmt(db, 'SELECT * FROM users WHERE username = ?').get(username) as UserRow | undefined

/** Users by username, one statement whatever the list (the names are bound as one JSON array). */
export const findUsersByUsernames = (db: Db, usernames: string[]) => usernames.length === 0 ? [] :
  stmt(db, 'SELECT * FROM users WHERE username IN (SELECT value FROM json_each(?))').all(JSON.stringify(usernames)) as UserRow[]

export const findUserByEmail = (db: Db, email: string) =>
  stmt(db, 'SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined

export const countUsers = (db: Db) => (stmt(db, 'SELECT COUNT(*) AS n FROM users').get() as { n: number }).n

export function insertUser(db: Db, user: NewUser): number {
  const cols = Object.keys(user)
  const sql = `INSERT INTO users (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`
  return Number(write(db, 'users', sql).run(user).lastInsertRowid)
}

export function touchUserSignIn(db: Db, id: number, at: string) {
  write(db, 'users', 'UPDATE users SET last_sign_in_at = ? WHERE id = ?').run(at, id)
}

export interface UserFilters {
  username?: string
  search?: string
  active?: boolean
  blocked?: boolean
  admins?: boolean
  /** The bot users of project and group access tokens left out. */
  withoutProjectBots?: boolean
  /** GitLab's by_external_identity: the user holding extern_uid at provider (without case). */
  identity?: { provider: string; externUid: string }
  orderBy: 'id' | 'name' | 'username' | 'created_at' | 'updated_at'
  sort: 'asc' | 'desc'
  limit: number
  offset: number
}

export function listUsers(db: Db, f: UserFilters): { rows: UserRow[]; total: number } {
  const where: string[] = []
  const args: Record<string, unknown> = {}
  if (f.username !== undefined) { where.push('username = @username'); args.username = f.username }
  if (f.search) {
    where.push("(username LIKE @search ESCAPE '\\' OR name LIKE @search ESCAPE '\\' OR email LIKE @search ESCAPE '\\')")
    args.search = likePattern(f.search)
  }
  if (f.active) where.push("state = 'active'")
  if (f.blocked) where.push("state = 'blocked'")
  if (f.admins) where.push('is_admin = 1')
  if (f.withoutProjectBots) where.push("user_type IS NOT 'project_bot'")
  if (f.identity) {
    where.push('id IN (SELECT user_id FROM identities WHERE provider = @provider AND extern_uid = @externUid COLLATE NOCASE)')
    Object.assign(args, f.identity)
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : ''
  const order = f.orderBy === 'updated_at' ? 'created_at' : f.orderBy
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM users ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM users ${clause} ORDER BY ${order} ${f.sort}, id ${f.sort} LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as UserRow[]
  return { rows, total }
}

/** LIKE pattern for a substring search, with the user's own % and _ taken literally. */
export const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`

export function setPassword(db: Db, id: number, hash: string) {
  write(db, 'users', 'UPDATE users SET password_hash = ? WHERE id = ?').run(hash, id)
}
