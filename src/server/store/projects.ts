// Projects: rows joined with their namespace, the visibility-aware list query, stars and custom attributes.
import { cachedRead, inIds, stmt, write, type Db } from './db.js'
import { openIn, REACHABLE_GROUPS_CTE, type OpenLevels } from './namespaces.js'
import { likePattern } from './users.js'

export interface ProjectRow {
  id: number
  namespace_id: number
  name: string
  path: string
  description: string | null
  default_branch: string | null
  visibility: 'private' | 'internal' | 'public'
  creator_id: number
  created_at: string
  updated_at: string
  last_activity_at: string
  archived: number
  issues_enabled: number
  merge_requests_enabled: number
  jobs_enabled: number
  wiki_enabled: number
  snippets_enabled: number
  container_registry_enabled: number
  resolve_outdated_diff_discussions: number
  shared_runners_enabled: number
  lfs_enabled: number
  public_jobs: number
  only_allow_merge_if_pipeline_succeeds: number
  only_allow_merge_if_all_discussions_are_resolved: number
  request_access_enabled: number
  printing_merge_request_link_enabled: number
  merge_method: 'merge' | 'rebase_merge' | 'ff'
  ci_config_path: string | null
  import_url: string | null
  import_status: 'none' | 'scheduled' | 'started' | 'finished' | 'failed'
  import_error: string | null
  forked_from_id: number | null
  tag_list: string
  star_count: number
  empty_repo: number
  runners_token: string
}

/** A project with the namespace fields every presenter needs. */
export interface ProjectView extends ProjectRow {
  ns_kind: 'user' | 'group'
  ns_name: string
  ns_path: string
  ns_full_path: string
  ns_parent_id: number | null
  ns_owner_id: number | null
  ns_full_name: string
  forks_count: number
  owner_username: string | null
  owner_name: string | null
  owner_state: string | null
  owner_created_at: string | null
  owner_avatar_path: string | null
}

const VIEW = `SELECT p.*, n.kind AS ns_kind, n.name AS ns_name, n.path AS ns_path, n.full_path AS ns_full_path,
    n.parent_id AS ns_parent_id, n.owner_id AS ns_owner_id,
    n.full_name AS ns_full_name,
    (SELECT COUNT(*) FROM projects f WHERE f.forked_from_id = p.id) AS forks_count,
    o.username AS owner_username, o.name AS owner_name, o.state AS owner_state, o.created_at AS owner_created_at,
    o.avatar_path AS owner_avatar_path
  FROM projects p JOIN namespaces n ON n.id = p.namespace_id LEFT JOIN users o ON n.kind = 'user' AND o.id = n.owner_id`

// Statement texts are built once: the statement cache is keyed by the SQL string.
const BY_ID = `${VIEW} WHERE p.id = ?`
/**
 * The namespace by its full path, then the project by its path in it: both columns are indexed without case (as
 * GitLab matches paths), where comparing the joined `full_path/path` read every project.
 */
export const PROJECT_BY_PATH_SQL = `${VIEW} WHERE n.full_path = @namespace AND p.path = @path COLLATE NOCASE`

export type NewProject = Omit<ProjectRow, 'id' | 'star_count' | 'empty_repo'> & { empty_repo?: number }
export type ProjectPatch = Partial<Omit<ProjectRow, 'id' | 'creator_id' | 'created_at' | 'star_count' | 'runners_token'>>

export function insertProject(db: Db, p: NewProject): number {
  const cols = Object.keys(p)
  return Number(write(db, 'projects', `INSERT INTO projects (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(p).lastInsertRowid)
}

export function updateProject(db: Db, id: number, patch: ProjectPatch) {
  const cols = Object.keys(patch)
  if (!cols.length) return
  write(db, 'projects', `UPDATE projects SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteProjectRow = (db: Db, id: number) => write(db, 'projects', 'DELETE FROM projects WHERE id = ?').run(id)

const VIEW_TABLES = ['projects', 'namespaces', 'users']

export const findProjectById = (db: Db, id: number) =>
  cachedRead(db, `project:${id}`, VIEW_TABLES, () => stmt(db, BY_ID).get(id) as ProjectView | undefined)

export function findProjectByPath(db: Db, fullPath: string): ProjectView | undefined {
  const cut = fullPath.lastIndexOf('/')
  if (cut <= 0) return undefined
  return stmt(db, PROJECT_BY_PATH_SQL).get({ namespace: fullPath.slice(0, cut), path: fullPath.slice(cut + 1) }) as ProjectView | undefined
}

export const findProjectInNamespace = (db: Db, namespaceId: number, name: string, path: string) =>
  stmt(db, 'SELECT id, name, path FROM projects WHERE namespace_id = ? AND (name = ? COLLATE NOCASE OR path = ? COLLATE NOCASE)')
    .all(namespaceId, name, path) as { id: number; name: string; path: string }[]

/** The caller's effective level on one project: direct membership or any ancestor group, highest wins. */
export function projectAccessLevel(db: Db, userId: number, projectId: number, namespaceId: number): number {
  const row = stmt(db, `WITH RECURSIVE up(id) AS (
      SELECT @ns UNION ALL SELECT n.parent_id FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL)
    SELECT MAX(level) AS level FROM (
      SELECT access_level AS level FROM project_members WHERE project_id = @project AND user_id = @user
      UNION ALL SELECT gm.access_level FROM group_members gm JOIN up ON gm.namespace_id = up.id WHERE gm.user_id = @user)`)
    .get({ ns: namespaceId, project: projectId, user: userId }) as { level: number | null }
  return row.level ?? 0
}

/** Whether the user is a direct member of a project in the group or a group below it (GitLab's GroupPolicy `has_projects`). */
export const memberOfProjectBelow = (db: Db, userId: number, groupId: number) => stmt(db, `WITH RECURSIVE down(id) AS (
    SELECT @group UNION ALL SELECT n.id FROM namespaces n JOIN down ON n.parent_id = down.id)
  SELECT 1 FROM project_members pm JOIN projects p ON p.id = pm.project_id JOIN down ON down.id = p.namespace_id
  WHERE pm.user_id = @user LIMIT 1`).get({ group: groupId, user: userId }) !== undefined

export const directProjectLevel = (db: Db, userId: number, projectId: number) => cachedRead(db, `level:${userId}:${projectId}`, ['project_members'], () =>
  (stmt(db, 'SELECT access_level FROM project_members WHERE project_id = ? AND user_id = ?').get(projectId, userId) as { access_level: number } | undefined)?.access_level ?? null)

export interface ProjectFilters {
  viewer: number | null
  admin: boolean
  open: OpenLevels
  archived?: boolean
  visibility?: string
  search?: string
  searchNamespaces?: boolean
  owned?: boolean
  membership?: boolean
  starred?: boolean
  starredBy?: number
  withIssuesEnabled?: boolean
  withMergeRequestsEnabled?: boolean
  minAccessLevel?: number
  idAfter?: number
  idBefore?: number
  topics?: string[]
  namespaceOwner?: number
  forkedFrom?: number
  inNamespace?: number
  customAttributes?: Record<string, string>
  none?: boolean
  orderBy: 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at' | 'star_count'
  sort: 'asc' | 'desc'
  limit: number
  offset: number
}

/**
 * Projects visible to the viewer, mirroring policy.ts: those open to the viewer (public; internal too for signed-in
 * users who are not external), the others to members (directly or through a group) and administrators.
 */
export function listProjects(db: Db, f: ProjectFilters): { rows: ProjectView[]; total: number } {
  const where: string[] = []
  const args: Record<string, unknown> = { viewer: f.viewer ?? -1 }
  if (f.none) where.push('0')
  if (!f.admin) {
    where.push(f.viewer === null ? openIn('p.visibility', f.open) : `(${openIn('p.visibility', f.open)} OR lvl.level >= 10)`)
  }
  if (f.archived !== undefined) { where.push('p.archived = @archived'); args.archived = f.archived ? 1 : 0 }
  if (f.visibility) { where.push('p.visibility = @visibility'); args.visibility = f.visibility }
  if (f.search) {
    where.push(f.searchNamespaces
      ? "((n.full_path || '/' || p.path) LIKE @search ESCAPE '\\' OR p.name LIKE @search ESCAPE '\\')"
      : "(p.name LIKE @search ESCAPE '\\' OR p.path LIKE @search ESCAPE '\\' OR p.description LIKE @search ESCAPE '\\')")
    args.search = likePattern(f.search)
  }
  if (f.owned) where.push("n.kind = 'user' AND n.owner_id = @viewer")
  if (f.membership) where.push('lvl.level >= 10')
  if (f.minAccessLevel !== undefined) { where.push('lvl.level >= @minLevel'); args.minLevel = f.minAccessLevel }
  if (f.starred) where.push('EXISTS (SELECT 1 FROM stars s WHERE s.project_id = p.id AND s.user_id = @viewer)')
  if (f.starredBy !== undefined) { where.push('EXISTS (SELECT 1 FROM stars s WHERE s.project_id = p.id AND s.user_id = @starredBy)'); args.starredBy = f.starredBy }
  if (f.withIssuesEnabled) where.push('p.issues_enabled = 1')
  if (f.withMergeRequestsEnabled) where.push('p.merge_requests_enabled = 1')
  if (f.idAfter !== undefined) { where.push('p.id > @idAfter'); args.idAfter = f.idAfter }
  if (f.idBefore !== undefined) { where.push('p.id < @idBefore'); args.idBefore = f.idBefore }
  if (f.namespaceOwner !== undefined) { where.push("n.kind = 'user' AND n.owner_id = @nsOwner"); args.nsOwner = f.namespaceOwner }
  if (f.inNamespace !== undefined) { where.push('p.namespace_id = @inNamespace'); args.inNamespace = f.inNamespace }
  if (f.forkedFrom !== undefined) { where.push('p.forked_from_id = @forkedFrom'); args.forkedFrom = f.forkedFrom }
  f.topics?.forEach((t, i) => {
    where.push(`EXISTS (SELECT 1 FROM json_each(p.tag_list) WHERE json_each.value = @topic${i})`)
    args[`topic${i}`] = t
  })
  Object.entries(f.customAttributes ?? {}).forEach(([k, v], i) => {
    where.push(`EXISTS (SELECT 1 FROM custom_attributes ca WHERE ca.subject = 'project' AND ca.subject_id = p.id AND ca.key = @cak${i} AND ca.value = @cav${i})`)
    args[`cak${i}`] = k
    args[`cav${i}`] = v
  })
  const needsLevel = f.viewer !== null && (!f.admin || f.membership || f.minAccessLevel !== undefined)
  const cte = needsLevel
    ? `WITH RECURSIVE ${REACHABLE_GROUPS_CTE}, acc(project_id, level) AS (
        SELECT project_id, access_level FROM project_members WHERE user_id = @viewer
        UNION ALL SELECT p2.id, reach.level FROM projects p2 JOIN reach ON p2.namespace_id = reach.ns_id),
      lvl AS (SELECT project_id, MAX(level) AS level FROM acc GROUP BY project_id) `
    : 'WITH lvl AS (SELECT NULL AS project_id, NULL AS level WHERE 0) '
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : ''
  // Joined only when a condition needs them: counting 10,000 projects through a join costs a millisecond.
  const joins = ['FROM projects p', /\bn\./.test(clause) ? 'JOIN namespaces n ON n.id = p.namespace_id' : '', /\blvl\./.test(clause) ? 'LEFT JOIN lvl ON lvl.project_id = p.id' : '']
    .filter(Boolean).join(' ')
  const countSql = `${cte} SELECT COUNT(*) AS n ${joins} ${clause}`
  const total = cachedRead(db, `project-count:${countSql}\0${JSON.stringify(args)}`, LIST_TABLES, () => (stmt(db, countSql).get(args) as { n: number }).n)
  const ids = stmt(db, `${cte} SELECT p.id ${joins} ${clause} ORDER BY p.${f.orderBy} ${f.sort}, p.id ${f.sort} LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as { id: number }[]
  // Rows come through the per-project cache: a page of 100 full rows is most of the cost of a list otherwise.
  return { rows: ids.map(({ id }) => findProjectById(db, id)!), total }
}

/** What a project list's conditions can read. */
const LIST_TABLES = ['projects', 'namespaces', 'users', 'project_members', 'group_members', 'stars', 'custom_attributes']

export function isStarred(db: Db, userId: number, projectId: number) {
  return stmt(db, 'SELECT 1 FROM stars WHERE user_id = ? AND project_id = ?').get(userId, projectId) !== undefined
}

export function setStar(db: Db, userId: number, projectId: number, on: boolean, at: string) {
  if (on) write(db, 'stars', 'INSERT INTO stars (user_id, project_id, created_at) VALUES (?, ?, ?)').run(userId, projectId, at)
  else write(db, 'stars', 'DELETE FROM stars WHERE user_id = ? AND project_id = ?').run(userId, projectId)
  write(db, 'projects', 'UPDATE projects SET star_count = (SELECT COUNT(*) FROM stars WHERE project_id = ?) WHERE id = ?').run(projectId, projectId)
}

export function listStarrers(db: Db, projectId: number, f: { search?: string; limit: number; offset: number }) {
  const args: Record<string, unknown> = { project: projectId }
  let clause = ''
  if (f.search) { clause = "AND (u.username LIKE @q ESCAPE '\\' OR u.name LIKE @q ESCAPE '\\')"; args.q = likePattern(f.search) }
  const from = `FROM stars s JOIN users u ON u.id = s.user_id WHERE s.project_id = @project ${clause}`
  const total = (stmt(db, `SELECT COUNT(*) AS n ${from}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT u.*, s.created_at AS starred_since ${from} ORDER BY s.created_at, u.id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as (import('./users.js').UserRow & { starred_since: string })[]
  return { rows, total }
}


/** Users who can reach a project: direct members and members of its ancestor groups. */
export function listProjectUsers(db: Db, projectId: number, namespaceId: number, f: { search?: string; skip?: number[]; limit: number; offset: number }) {
  const where: string[] = []
  const args: Record<string, unknown> = { project: projectId, ns: namespaceId }
  if (f.search) { where.push("(u.username LIKE @q ESCAPE '\\' OR u.name LIKE @q ESCAPE '\\')"); args.q = likePattern(f.search) }
  if (f.skip?.length) where.push(`u.id NOT ${inIds('skip', f.skip, args)}`)
  const from = `WITH RECURSIVE up(id) AS (SELECT @ns UNION ALL SELECT n.parent_id FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL),
    ids AS (SELECT user_id FROM project_members WHERE project_id = @project UNION SELECT gm.user_id FROM group_members gm JOIN up ON gm.namespace_id = up.id)
    SELECT %s FROM users u JOIN ids ON ids.user_id = u.id ${where.length ? 'WHERE ' + where.join(' AND ') : ''}`
  const total = (stmt(db, from.replace('%s', 'COUNT(*) AS n')).get(args) as { n: number }).n
  const rows = stmt(db, `${from.replace('%s', 'u.*')} ORDER BY u.id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as import('./users.js').UserRow[]
  return { rows, total }
}

/** Projects in a user's personal namespace: what counts against their projects_limit. */
export const countPersonalProjects = (db: Db, userId: number) =>
  (stmt(db, "SELECT COUNT(*) AS n FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE n.kind = 'user' AND n.owner_id = ?")
    .get(userId) as { n: number }).n

export const countProjectsInNamespace = (db: Db, namespaceId: number) =>
  (stmt(db, 'SELECT COUNT(*) AS n FROM projects WHERE namespace_id = ?').get(namespaceId) as { n: number }).n
