// The CI/CD job token inbound scope of projects: whether it is on, and the projects and groups it allows.
import { stmt, write, type Db } from './db.js'

export interface ProjectScopeLinkRow { id: number; source_project_id: number; target_project_id: number; added_by_id: number | null; created_at: string }
export interface GroupScopeLinkRow { id: number; source_project_id: number; target_group_id: number; added_by_id: number | null; created_at: string }

/** On unless turned off: a project without a row has the scope on. */
export const inboundScopeEnabled = (db: Db, projectId: number) =>
  (stmt(db, 'SELECT inbound_enabled FROM ci_job_token_scopes WHERE project_id = ?').get(projectId) as { inbound_enabled: number } | undefined)
    ?.inbound_enabled !== 0

export const setInboundScopeEnabled = (db: Db, projectId: number, enabled: boolean) =>
  write(db, 'ci_job_token_scopes', `INSERT INTO ci_job_token_scopes (project_id, inbound_enabled) VALUES (?, ?)
    ON CONFLICT (project_id) DO UPDATE SET inbound_enabled = excluded.inbound_enabled`).run(projectId, enabled ? 1 : 0)

/**
 * Whether a job token of project `from` may act on project `to`: its own project always; another only while `to`'s
 * scope is off, or when `to` allows `from` by name or by a group `from` sits in (at any depth).
 */
export function jobTokenAllowed(db: Db, from: number, to: number): boolean {
  if (from === to) return true
  return stmt(db, `SELECT 1 WHERE COALESCE((SELECT inbound_enabled FROM ci_job_token_scopes WHERE project_id = @to), 1) = 0
    OR EXISTS (SELECT 1 FROM ci_job_token_project_scope_links WHERE source_project_id = @to AND target_project_id = @from)
    OR EXISTS (WITH RECURSIVE up(id) AS (SELECT namespace_id FROM projects WHERE id = @from
        UNION SELECT n.parent_id FROM namespaces n JOIN up ON n.id = up.id WHERE n.parent_id IS NOT NULL)
      SELECT 1 FROM ci_job_token_group_scope_links WHERE source_project_id = @to AND target_group_id IN (SELECT id FROM up))`)
    .get({ from, to }) !== undefined
}

/** The allowed projects' ids, in the order they were added, and how many there are. */
export function allowedProjectIds(db: Db, projectId: number, limit: number, offset: number) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM ci_job_token_project_scope_links WHERE source_project_id = ?').get(projectId) as { n: number }).n
  const ids = (stmt(db, 'SELECT target_project_id FROM ci_job_token_project_scope_links WHERE source_project_id = ? ORDER BY id LIMIT ? OFFSET ?')
    .all(projectId, limit, offset) as { target_project_id: number }[]).map((r) => r.target_project_id)
  return { ids, total }
}

export function allowedGroupIds(db: Db, projectId: number, limit: number, offset: number) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM ci_job_token_group_scope_links WHERE source_project_id = ?').get(projectId) as { n: number }).n
  const ids = (stmt(db, 'SELECT target_group_id FROM ci_job_token_group_scope_links WHERE source_project_id = ? ORDER BY id LIMIT ? OFFSET ?')
    .all(projectId, limit, offset) as { target_group_id: number }[]).map((r) => r.target_group_id)
  return { ids, total }
}

/** The new link, or undefined when the project is allowed already. */
export const insertProjectScopeLink = (db: Db, l: Omit<ProjectScopeLinkRow, 'id'>) =>
  write(db, 'ci_job_token_project_scope_links', `INSERT INTO ci_job_token_project_scope_links (source_project_id, target_project_id, added_by_id, created_at)
    VALUES (@source_project_id, @target_project_id, @added_by_id, @created_at) ON CONFLICT DO NOTHING RETURNING *`).get(l) as ProjectScopeLinkRow | undefined

export const insertGroupScopeLink = (db: Db, l: Omit<GroupScopeLinkRow, 'id'>) =>
  write(db, 'ci_job_token_group_scope_links', `INSERT INTO ci_job_token_group_scope_links (source_project_id, target_group_id, added_by_id, created_at)
    VALUES (@source_project_id, @target_group_id, @added_by_id, @created_at) ON CONFLICT DO NOTHING RETURNING *`).get(l) as GroupScopeLinkRow | undefined

/** Whether there was such a link. */
export const deleteProjectScopeLink = (db: Db, projectId: number, targetProjectId: number) =>
  write(db, 'ci_job_token_project_scope_links', 'DELETE FROM ci_job_token_project_scope_links WHERE source_project_id = ? AND target_project_id = ?').run(projectId, targetProjectId).changes > 0

export const deleteGroupScopeLink = (db: Db, projectId: number, targetGroupId: number) =>
  write(db, 'ci_job_token_group_scope_links', 'DELETE FROM ci_job_token_group_scope_links WHERE source_project_id = ? AND target_group_id = ?').run(projectId, targetGroupId).changes > 0
