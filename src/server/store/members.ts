// Project and group memberships; inherited membership flows down from ancestor groups.
import { inIds, stmt, write, type Db } from './db.js'
import type { UserRow } from './users.js'
import { likePattern } from './users.js'

export type MemberSource = { kind: 'project'; id: number; namespaceId: number } | { kind: 'group'; id: number }

export interface MemberRow extends UserRow {
  access_level: number
  member_created_at: string
  member_expires_at: string | null
}

const table = (s: MemberSource) => (s.kind === 'project' ? 'project_members' : 'group_members')
const key = (s: MemberSource) => (s.kind === 'project' ? 'project_id' : 'namespace_id')

export function findDirectMember(db: Db, s: MemberSource, userId: number) {
  return stmt(db, `SELECT u.*, m.access_level, m.created_at AS member_created_at, m.expires_at AS member_expires_at
    FROM ${table(s)} m JOIN users u ON u.id = m.user_id WHERE m.${key(s)} = ? AND m.user_id = ?`).get(s.id, userId) as MemberRow | undefined
}

export function insertMember(db: Db, s: MemberSource, m: { user_id: number; access_level: number; created_at: string; expires_at: string | null }) {
  write(db, table(s), `INSERT INTO ${table(s)} (${key(s)}, user_id, access_level, created_at, expires_at)
    VALUES (@source, @user_id, @access_level, @created_at, @expires_at)`).run({ source: s.id, ...m })
}

export function updateMember(db: Db, s: MemberSource, userId: number, level: number, expiresAt: string | null | undefined) {
  write(db, table(s), `UPDATE ${table(s)} SET access_level = @level, expires_at = COALESCE(@expires, expires_at)
    WHERE ${key(s)} = @source AND user_id = @user`).run({ level, expires: expiresAt ?? null, source: s.id, user: userId })
}

export function deleteMember(db: Db, s: MemberSource, userId: number) {
  return write(db, table(s), `DELETE FROM ${table(s)} WHERE ${key(s)} = ? AND user_id = ?`).run(s.id, userId).changes
}

/** Group ids from the given group up to the root. */
function ancestorsCte(startParam: string) {
  return `up(id) AS (SELECT ${startParam} UNION ALL SELECT n.parent_id FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL)`
}

export interface MemberFilters { query?: string; userIds?: number[]; limit: number; offset: number }

/** Direct or effective (direct plus inherited, highest level wins) members. */
export function listMembers(db: Db, s: MemberSource, inherited: boolean, f: MemberFilters): { rows: MemberRow[]; total: number } {
  const groupStart = s.kind === 'project' ? '@namespace' : '@source'
  const sources = inherited
    ? `WITH RECURSIVE ${ancestorsCte(groupStart)}, m AS (
        ${s.kind === 'project' ? 'SELECT user_id, access_level, created_at, expires_at FROM project_members WHERE project_id = @source UNION ALL' : ''}
        SELECT gm.user_id, gm.access_level, gm.created_at, gm.expires_at FROM group_members gm JOIN up ON gm.namespace_id = up.id),
      best AS (SELECT user_id, MAX(access_level) AS access_level, MIN(created_at) AS created_at, MAX(expires_at) AS expires_at FROM m GROUP BY user_id)`
    : `WITH best AS (SELECT user_id, access_level, created_at, expires_at FROM ${table(s)} WHERE ${key(s)} = @source)`
  const where: string[] = []
  const args: Record<string, unknown> = { source: s.id, namespace: s.kind === 'project' ? s.namespaceId : null }
  if (f.query) { where.push("(u.username LIKE @q ESCAPE '\\' OR u.name LIKE @q ESCAPE '\\' OR u.email LIKE @q ESCAPE '\\')"); args.q = likePattern(f.query) }
  if (f.userIds?.length) where.push(`u.id ${inIds('user', f.userIds, args)}`)
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : ''
  const select = `${sources} SELECT %s FROM best JOIN users u ON u.id = best.user_id ${clause}`
  const total = (stmt(db, select.replace('%s', 'COUNT(*) AS n')).get(args) as { n: number }).n
  const rows = stmt(db, `${select.replace('%s', `u.*, best.access_level, best.created_at AS member_created_at, best.expires_at AS member_expires_at`)}
    ORDER BY u.id LIMIT @limit OFFSET @offset`).all({ ...args, limit: f.limit, offset: f.offset }) as MemberRow[]
  return { rows, total }
}

/** Number of direct owners, so the last one cannot be removed or demoted. */
export function countOwners(db: Db, s: MemberSource) {
  return (stmt(db, `SELECT COUNT(*) AS n FROM ${table(s)} WHERE ${key(s)} = ? AND access_level = 50`).get(s.id) as { n: number }).n
}

/** Memberships whose expiry date has come (GitLab's `expired` scope: expires_at on or before today). */
/** Project memberships that have expired by a day (the events feed records each one's end). */
export const expiredProjectMembers = (db: Db, today: string) =>
  stmt(db, 'SELECT project_id, user_id FROM project_members WHERE expires_at IS NOT NULL AND substr(expires_at, 1, 10) <= ?').all(today) as { project_id: number; user_id: number }[]

export function deleteExpiredMembers(db: Db, today: string): number {
  let removed = 0
  for (const t of ['project_members', 'group_members']) {
    removed += write(db, t, `DELETE FROM ${t} WHERE expires_at IS NOT NULL AND substr(expires_at, 1, 10) <= ?`).run(today).changes
  }
  return removed
}
