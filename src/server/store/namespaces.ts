// Namespaces: one per user and one per group (groups nest through parent_id).
import { inIds, stmt, write, type Db } from './db.js'
import { likePattern } from './users.js'

export interface NamespaceRow {
  id: number
  kind: 'user' | 'group'
  name: string
  path: string
  full_path: string
  full_name: string
  parent_id: number | null
  owner_id: number | null
  description: string
  visibility: 'private' | 'internal' | 'public'
  request_access_enabled: number
  lfs_enabled: number
  default_branch: string | null
  created_at: string
}

export type NewNamespace = Omit<NamespaceRow, 'id' | 'request_access_enabled' | 'lfs_enabled' | 'default_branch'> &
  Partial<Pick<NamespaceRow, 'request_access_enabled' | 'lfs_enabled' | 'default_branch'>>

export function insertNamespace(db: Db, ns: NewNamespace): number {
  return Number(write(db, 'namespaces', `INSERT INTO namespaces (kind, name, path, full_path, full_name, parent_id, owner_id, description, visibility,
      request_access_enabled, lfs_enabled, default_branch, created_at)
    VALUES (@kind, @name, @path, @full_path, @full_name, @parent_id, @owner_id, @description, @visibility,
      @request_access_enabled, @lfs_enabled, @default_branch, @created_at)`)
    .run({ request_access_enabled: 1, lfs_enabled: 1, default_branch: null, ...ns }).lastInsertRowid)
}

export const findNamespaceById = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM namespaces WHERE id = ?').get(id) as NamespaceRow | undefined

/** Whether a namespace has this full path, ignoring case as GitLab's filter_by_path does. */
export const namespacePathTaken = (db: Db, fullPath: string) =>
  stmt(db, 'SELECT 1 FROM namespaces WHERE lower(full_path) = lower(?)').get(fullPath) !== undefined

export const findNamespaceByPath = (db: Db, fullPath: string) =>
  stmt(db, 'SELECT * FROM namespaces WHERE full_path = ?').get(fullPath) as NamespaceRow | undefined

export const findUserNamespace = (db: Db, userId: number) =>
  stmt(db, "SELECT * FROM namespaces WHERE kind = 'user' AND owner_id = ?").get(userId) as NamespaceRow | undefined

/** The highest level a user holds on a group through it or any ancestor group. */
export function groupAccessLevel(db: Db, userId: number, namespaceId: number): number {
  const row = stmt(db, `WITH RECURSIVE up(id) AS (
      SELECT ? UNION ALL SELECT n.parent_id FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL)
    SELECT MAX(gm.access_level) AS level FROM group_members gm JOIN up ON gm.namespace_id = up.id WHERE gm.user_id = ?`)
    .get(namespaceId, userId) as { level: number | null }
  return row.level ?? 0
}

/** Recursive CTE naming every group a user reaches (directly or through an ancestor) with the level held there. */
export const REACHABLE_GROUPS_CTE = `reach(ns_id, level) AS (
    SELECT namespace_id, access_level FROM group_members WHERE user_id = @viewer
    UNION ALL SELECT n.id, reach.level FROM namespaces n JOIN reach ON n.parent_id = reach.ns_id)`

/** Visibility levels a viewer reads without membership: policy.ts's openVisibilities, never request input. */
export type OpenLevels = readonly ('public' | 'internal')[]

/** `column IN ('public', …)` for the levels a viewer reads without membership (literals: two statement texts in all). */
export const openIn = (column: string, open: OpenLevels) => `${column} IN (${open.map((l) => `'${l}'`).join(', ')})`

export interface GroupFilters {
  viewer: number | null
  admin: boolean
  open: OpenLevels
  search?: string
  owned?: boolean
  minAccessLevel?: number
  allAvailable?: boolean
  topLevelOnly?: boolean
  parentId?: number
  /** Every group below this full path, at any depth (descendant_groups). */
  ancestorPath?: string
  skip?: number[]
  visibility?: string
  orderBy: 'name' | 'path' | 'id'
  sort: 'asc' | 'desc'
  limit: number
  offset: number
}

export function listGroups(db: Db, f: GroupFilters): { rows: NamespaceRow[]; total: number } {
  const where = ["n.kind = 'group'"]
  const args: Record<string, unknown> = { viewer: f.viewer ?? -1 }
  const memberOnly = f.owned || f.minAccessLevel !== undefined || (f.viewer !== null && !f.admin && f.allAvailable === false)
  if (!f.admin || memberOnly) {
    const visible = f.viewer === null ? openIn('n.visibility', f.open)
      : memberOnly ? 'lvl.level IS NOT NULL' : `(${openIn('n.visibility', f.open)} OR lvl.level IS NOT NULL)`
    where.push(visible)
  }
  if (f.owned) where.push('lvl.level >= 50')
  if (f.minAccessLevel !== undefined) { where.push('lvl.level >= @minLevel'); args.minLevel = f.minAccessLevel }
  if (f.topLevelOnly) where.push('n.parent_id IS NULL')
  if (f.parentId !== undefined) { where.push('n.parent_id = @parentId'); args.parentId = f.parentId }
  if (f.ancestorPath !== undefined) { where.push("substr(n.full_path, 1, length(@below)) = @below"); args.below = `${f.ancestorPath}/` }
  if (f.visibility) { where.push('n.visibility = @visibility'); args.visibility = f.visibility }
  if (f.search) { where.push("(n.name LIKE @search ESCAPE '\\' OR n.path LIKE @search ESCAPE '\\')"); args.search = likePattern(f.search) }
  if (f.skip?.length) where.push(`n.id NOT ${inIds('skip', f.skip, args)}`)
  const from = `WITH RECURSIVE ${REACHABLE_GROUPS_CTE}, lvl AS (SELECT ns_id, MAX(level) AS level FROM reach GROUP BY ns_id)
    SELECT %s FROM namespaces n LEFT JOIN lvl ON lvl.ns_id = n.id WHERE ${where.join(' AND ')}`
  const total = (stmt(db, from.replace('%s', 'COUNT(*) AS n')).get(args) as { n: number }).n
  const order = f.orderBy === 'name' ? 'n.name' : f.orderBy === 'path' ? 'n.full_path' : 'n.id'
  const rows = stmt(db, `${from.replace('%s', 'n.*')} ORDER BY ${order} ${f.sort}, n.id ${f.sort} LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as NamespaceRow[]
  return { rows, total }
}

export function listNamespacesFor(db: Db, f: { viewer: number; admin: boolean; search?: string; ownedOnly?: boolean; limit: number; offset: number }) {
  const where: string[] = []
  const args: Record<string, unknown> = { viewer: f.viewer }
  if (!f.admin || f.ownedOnly) {
    where.push(f.ownedOnly ? "((n.kind = 'user' AND n.owner_id = @viewer) OR lvl.level >= 50)"
      : "((n.kind = 'user' AND n.owner_id = @viewer) OR lvl.level IS NOT NULL)")
  }
  if (f.search) { where.push("(n.name LIKE @search ESCAPE '\\' OR n.path LIKE @search ESCAPE '\\')"); args.search = likePattern(f.search) }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : ''
  const from = `WITH RECURSIVE ${REACHABLE_GROUPS_CTE}, lvl AS (SELECT ns_id, MAX(level) AS level FROM reach GROUP BY ns_id)
    SELECT %s FROM namespaces n LEFT JOIN lvl ON lvl.ns_id = n.id ${clause}`
  const total = (stmt(db, from.replace('%s', 'COUNT(*) AS n')).get(args) as { n: number }).n
  const rows = stmt(db, `${from.replace('%s', 'n.*')} ORDER BY n.id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as NamespaceRow[]
  return { rows, total }
}
