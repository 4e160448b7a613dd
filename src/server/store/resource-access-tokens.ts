// Project and group access tokens: the bot users made for them and their tokens (rows of `tokens`, kind personal).
import { stmt, write, type Db } from './db.js'
import type { TokenRow } from './tokens.js'
import { likePattern } from './users.js'

export type Resource = { kind: 'project'; id: number } | { kind: 'group'; id: number }

export interface ResourceTokenRow extends TokenRow {
  /** The bot's membership level in the resource; null once the membership is gone. */
  access_level: number | null
}

export interface BotRow { user_id: number; project_id: number | null; group_id: number | null }

export const insertBot = (db: Db, userId: number, r: Resource) =>
  write(db, 'resource_access_bots', 'INSERT INTO resource_access_bots (user_id, project_id, group_id) VALUES (?, ?, ?)')
    .run(userId, r.kind === 'project' ? r.id : null, r.kind === 'group' ? r.id : null)

/**
 * When the project or group goes, its bots can serve nothing: their tokens are revoked and they are blocked (GitLab
 * deletes them with the resource; here their contributions stay theirs).
 */
export function retireBots(db: Db, r: Resource) {
  const bots = `SELECT user_id FROM resource_access_bots WHERE ${r.kind === 'project' ? 'project_id' : 'group_id'} = ?`
  write(db, 'tokens', `UPDATE tokens SET revoked = 1 WHERE user_id IN (${bots})`).run(r.id)
  write(db, 'users', `UPDATE users SET state = 'blocked' WHERE id IN (${bots})`).run(r.id)
}

export const findBot = (db: Db, userId: number) =>
  stmt(db, 'SELECT * FROM resource_access_bots WHERE user_id = ?').get(userId) as BotRow | undefined

/** Tokens of the resource's bots with each bot's level there, from the resource's own members table. */
const FROM = {
  project: `FROM tokens t JOIN resource_access_bots b ON b.user_id = t.user_id AND b.project_id = @resource
    LEFT JOIN project_members m ON m.project_id = b.project_id AND m.user_id = t.user_id`,
  group: `FROM tokens t JOIN resource_access_bots b ON b.user_id = t.user_id AND b.group_id = @resource
    LEFT JOIN group_members m ON m.namespace_id = b.group_id AND m.user_id = t.user_id`,
}

export interface ResourceTokenFilters { active?: boolean; revoked?: boolean; search?: string; today: string; limit: number; offset: number }

/** `today` (YYYY-MM-DD) comes from the app clock, as in `listTokens`. */
export function listResourceTokens(db: Db, r: Resource, f: ResourceTokenFilters) {
  const where = ["t.kind = 'personal'"]
  const args: Record<string, unknown> = { resource: r.id, today: f.today }
  if (f.active === true) where.push('t.revoked = 0 AND (t.expires_at IS NULL OR t.expires_at >= @today)')
  if (f.active === false) where.push('(t.revoked = 1 OR (t.expires_at IS NOT NULL AND t.expires_at < @today))')
  if (f.revoked !== undefined) { where.push('t.revoked = @revoked'); args.revoked = f.revoked ? 1 : 0 }
  if (f.search) { where.push("t.name LIKE @search ESCAPE '\\'"); args.search = likePattern(f.search) }
  const clause = `${FROM[r.kind]} WHERE ${where.join(' AND ')}`
  const total = (stmt(db, `SELECT COUNT(*) AS n ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT t.*, m.access_level ${clause} ORDER BY t.id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as ResourceTokenRow[]
  return { rows, total }
}

export const findResourceToken = (db: Db, r: Resource, tokenId: number) =>
  stmt(db, `SELECT t.*, m.access_level ${FROM[r.kind]} WHERE t.id = @id AND t.kind = 'personal'`)
    .get({ resource: r.id, id: tokenId }) as ResourceTokenRow | undefined
