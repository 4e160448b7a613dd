// Environments and deployments of a project: rows in, rows out. A CI job's deployment follows the job's status through
// the trigger of migration 036.
import { stmt, write, type Db } from './db.js'
import { SQL_FINISHED } from './status-sets.js'

export interface EnvironmentRow {
  id: number
  project_id: number
  name: string
  slug: string
  external_url: string | null
  state: 'available' | 'stopping' | 'stopped'
  tier: string
  auto_stop_at: string | null
  created_at: string
  updated_at: string
}

export interface DeploymentRow {
  id: number
  project_id: number
  environment_id: number
  iid: number
  ref: string
  tag: number
  sha: string
  status: string
  user_id: number | null
  deployable_id: number | null
  on_stop: string | null
  created_at: string
  updated_at: string
  finished_at: string | null
}

export type EnvironmentPatch = Partial<Pick<EnvironmentRow, 'external_url' | 'state' | 'tier' | 'auto_stop_at' | 'updated_at'>>
export type DeploymentPatch = Partial<Pick<DeploymentRow, 'status' | 'updated_at' | 'finished_at'>>

export const findEnvironment = (db: Db, projectId: number, id: number) =>
  stmt(db, 'SELECT * FROM environments WHERE project_id = ? AND id = ?').get(projectId, id) as EnvironmentRow | undefined

export const findEnvironmentByName = (db: Db, projectId: number, name: string) =>
  stmt(db, 'SELECT * FROM environments WHERE project_id = ? AND name = ?').get(projectId, name) as EnvironmentRow | undefined

export const findEnvironmentById = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM environments WHERE id = ?').get(id) as EnvironmentRow | undefined

export const slugTaken = (db: Db, projectId: number, slug: string) =>
  stmt(db, 'SELECT 1 FROM environments WHERE project_id = ? AND slug = ?').get(projectId, slug) !== undefined

export interface EnvironmentFilters {
  projectId: number
  name?: string
  /** Names starting with it, case-insensitively (EnvironmentsFinder's for_name_like). */
  search?: string
  state?: string
  limit: number
  offset: number
}

export function listEnvironments(db: Db, f: EnvironmentFilters): { rows: EnvironmentRow[]; total: number } {
  const where = ['project_id = @project']
  const args: Record<string, unknown> = { project: f.projectId }
  if (f.name !== undefined) { where.push('name = @name'); args.name = f.name }
  if (f.search !== undefined) {
    where.push("lower(name) LIKE lower(@search) || '%' ESCAPE '\\'")
    args.search = f.search.replace(/[\\%_]/g, (c) => `\\${c}`)
  }
  if (f.state !== undefined) { where.push('state = @state'); args.state = f.state }
  const clause = where.join(' AND ')
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM environments WHERE ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM environments WHERE ${clause} ORDER BY id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as EnvironmentRow[]
  return { rows, total }
}

export function insertEnvironment(db: Db, row: Omit<EnvironmentRow, 'id'>): EnvironmentRow {
  return write(db, 'environments', `INSERT INTO environments (project_id, name, slug, external_url, state, tier, auto_stop_at, created_at, updated_at)
    VALUES (@project_id, @name, @slug, @external_url, @state, @tier, @auto_stop_at, @created_at, @updated_at) RETURNING *`).get(row) as EnvironmentRow
}

const ENVIRONMENT_COLUMNS = new Set(['external_url', 'state', 'tier', 'auto_stop_at', 'updated_at'])

export function updateEnvironment(db: Db, id: number, patch: EnvironmentPatch) {
  const keys = Object.keys(patch).filter((k) => ENVIRONMENT_COLUMNS.has(k)).sort()
  if (!keys.length) return
  write(db, 'environments', `UPDATE environments SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

/** Moves the environment only from one of the `from` states; answers whether it moved. */
export function transitionEnvironment(db: Db, id: number, from: readonly string[], state: EnvironmentRow['state'], at: string): boolean {
  const marks = from.map((s) => `'${s.replace(/'/g, '')}'`).join(', ')
  // Stopping forgets the auto-stop time, as GitLab's before_transition to stopped does.
  return write(db, 'environments', `UPDATE environments SET state = @state, updated_at = @at,
      auto_stop_at = CASE WHEN @state = 'stopped' THEN NULL ELSE auto_stop_at END
    WHERE id = @id AND state IN (${marks})`).run({ id, state, at }).changes > 0
}

export const deleteEnvironment = (db: Db, id: number) => write(db, 'environments', 'DELETE FROM environments WHERE id = ?').run(id)

/** Available environments last touched before `before` with no deployment touched since (deployed_and_updated_before). */
export const staleEnvironments = (db: Db, projectId: number, before: string) =>
  stmt(db, `SELECT * FROM environments e WHERE e.project_id = ? AND e.state = 'available' AND e.updated_at < ?
    AND NOT EXISTS (SELECT 1 FROM deployments d WHERE d.environment_id = e.id AND d.updated_at >= ?) ORDER BY e.id`)
    .all(projectId, before, before) as EnvironmentRow[]

export function insertDeployment(db: Db, row: Omit<DeploymentRow, 'id'>): DeploymentRow {
  return write(db, 'deployments', `INSERT INTO deployments (project_id, environment_id, iid, ref, tag, sha, status, user_id, deployable_id, on_stop,
      created_at, updated_at, finished_at)
    VALUES (@project_id, @environment_id, @iid, @ref, @tag, @sha, @status, @user_id, @deployable_id, @on_stop, @created_at, @updated_at,
      @finished_at) RETURNING *`).get(row) as DeploymentRow
}

export function updateDeployment(db: Db, id: number, patch: DeploymentPatch) {
  const keys = Object.keys(patch).filter((k) => ['status', 'updated_at', 'finished_at'].includes(k)).sort()
  if (!keys.length) return
  write(db, 'deployments', `UPDATE deployments SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteDeployment = (db: Db, id: number) => write(db, 'deployments', 'DELETE FROM deployments WHERE id = ?').run(id)

export const findDeployment = (db: Db, projectId: number, id: number) =>
  stmt(db, 'SELECT * FROM deployments WHERE project_id = ? AND id = ?').get(projectId, id) as DeploymentRow | undefined

export const findDeploymentOfJob = (db: Db, jobId: number) =>
  stmt(db, 'SELECT * FROM deployments WHERE deployable_id = ?').get(jobId) as DeploymentRow | undefined

/** GitLab's last_deployment: the environment's latest successful deployment (`success.ordered`: finished last). */
export const lastSuccessfulDeployment = (db: Db, environmentId: number) =>
  stmt(db, `SELECT * FROM deployments WHERE environment_id = ? AND status = 'success'
    ORDER BY finished_at DESC, id DESC LIMIT 1`).get(environmentId) as DeploymentRow | undefined

/** The latest deployment that ended (success, failed or canceled): its on_stop names the environment's stop job. */
export const lastFinishedDeployment = (db: Db, environmentId: number) =>
  stmt(db, `SELECT * FROM deployments WHERE environment_id = ? AND status IN ${SQL_FINISHED}
    ORDER BY finished_at DESC, id DESC LIMIT 1`).get(environmentId) as DeploymentRow | undefined

/** The deployment before `id` that succeeded on the same environment: what a deployment's merge requests are counted from. */
export const previousSuccessfulDeployment = (db: Db, environmentId: number, id: number) =>
  stmt(db, `SELECT * FROM deployments WHERE environment_id = ? AND status = 'success' AND id < ? ORDER BY id DESC LIMIT 1`)
    .get(environmentId, id) as DeploymentRow | undefined

export interface DeploymentFilters {
  projectId: number
  environmentId?: number
  statuses?: string[]
  updatedAfter?: string
  updatedBefore?: string
  finishedAfter?: string
  finishedBefore?: string
  orderBy: 'id' | 'iid' | 'created_at' | 'updated_at' | 'finished_at'
  sort: 'asc' | 'desc'
  limit: number
  offset: number
}

export function listDeployments(db: Db, f: DeploymentFilters): { rows: DeploymentRow[]; total: number } {
  const where = ['project_id = @project']
  const args: Record<string, unknown> = { project: f.projectId }
  if (f.environmentId !== undefined) { where.push('environment_id = @env'); args.env = f.environmentId }
  if (f.statuses?.length) {
    where.push(`status IN (${f.statuses.map((_, i) => `@s${i}`).join(', ')})`)
    f.statuses.forEach((s, i) => { args[`s${i}`] = s })
  }
  const range: [keyof DeploymentFilters, string, string][] = [
    ['updatedAfter', 'updated_at >', 'ua'], ['updatedBefore', 'updated_at <', 'ub'],
    ['finishedAfter', 'finished_at >', 'fa'], ['finishedBefore', 'finished_at <', 'fb'],
  ]
  for (const [key, cond, name] of range) if (f[key] !== undefined) { where.push(`${cond} @${name}`); args[name] = f[key] }
  const clause = where.join(' AND ')
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM deployments WHERE ${clause}`).get(args) as { n: number }).n
  const dir = f.sort === 'desc' ? 'DESC' : 'ASC'
  // DeploymentsFinder: created_at and iid sort as id does; updated_at and finished_at break ties by id.
  const order = f.orderBy === 'updated_at' || f.orderBy === 'finished_at' ? `${f.orderBy} ${dir}, id ${dir}` : `id ${dir}`
  const rows = stmt(db, `SELECT * FROM deployments WHERE ${clause} ORDER BY ${order} LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as DeploymentRow[]
  return { rows, total }
}

/** The environment's deployments, newest first (its page). */
export const environmentDeployments = (db: Db, environmentId: number, limit: number) =>
  stmt(db, 'SELECT * FROM deployments WHERE environment_id = ? ORDER BY id DESC LIMIT ?').all(environmentId, limit) as DeploymentRow[]

export function linkDeploymentMergeRequests(db: Db, deploymentId: number, mergeRequestIds: number[]) {
  for (const mr of mergeRequestIds) {
    write(db, 'deployment_merge_requests', 'INSERT OR IGNORE INTO deployment_merge_requests (deployment_id, merge_request_id) VALUES (?, ?)').run(deploymentId, mr)
  }
}

export const deploymentMergeRequestIds = (db: Db, deploymentId: number) =>
  (stmt(db, 'SELECT merge_request_id FROM deployment_merge_requests WHERE deployment_id = ? ORDER BY merge_request_id DESC')
    .all(deploymentId) as { merge_request_id: number }[]).map((r) => r.merge_request_id)


/** A merged merge request a deployment of its target branch may have shipped (Deployments::LinkMergeRequestsService). */
export interface MergedCandidate { id: number; merge_commit_sha: string | null; squash_commit_sha: string | null; source_sha: string | null }

// GitLab links at most this many merge requests per deployment pass.
const LIMIT = 1000

export const mergedMergeRequestsInto = (db: Db, projectId: number, branch: string) =>
  stmt(db, `SELECT id, merge_commit_sha, squash_commit_sha, source_sha FROM merge_requests
    WHERE project_id = ? AND target_branch = ? AND state = 'merged' ORDER BY id DESC LIMIT ${LIMIT}`).all(projectId, branch) as MergedCandidate[]
