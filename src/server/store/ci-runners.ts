// Runners of the runner protocol, their projects, and the registration tokens of the legacy registration flow.
import { stmt, write, type Db } from './db.js'

export type RunnerType = 'instance_type' | 'group_type' | 'project_type'

export interface RunnerRow {
  id: number
  runner_type: RunnerType
  token_hash: string
  token_expires_at: string | null
  description: string
  maintenance_note: string | null
  paused: number
  locked: number
  run_untagged: number
  tag_list: string
  access_level: 'not_protected' | 'ref_protected'
  maximum_timeout: number | null
  group_id: number | null
  creator_id: number | null
  embedded: number
  admin_pipelines_only: number
  name: string | null
  version: string | null
  revision: string | null
  platform: string | null
  architecture: string | null
  executor: string | null
  ip_address: string | null
  contacted_at: string | null
  created_at: string
}

export type NewRunner = Pick<RunnerRow, 'runner_type' | 'token_hash' | 'description' | 'maintenance_note' | 'paused' | 'locked'
  | 'run_untagged' | 'tag_list' | 'access_level' | 'maximum_timeout' | 'group_id' | 'creator_id' | 'created_at'>

export const insertRunner = (db: Db, r: NewRunner) => write(db, 'ci_runners', `INSERT INTO ci_runners (runner_type, token_hash, description,
  maintenance_note, paused, locked, run_untagged, tag_list, access_level, maximum_timeout, group_id, creator_id, created_at)
  VALUES (@runner_type, @token_hash, @description, @maintenance_note, @paused, @locked, @run_untagged, @tag_list,
  @access_level, @maximum_timeout, @group_id, @creator_id, @created_at) RETURNING *`).get(r) as RunnerRow

export const findRunnerById = (db: Db, id: number) => stmt(db, 'SELECT * FROM ci_runners WHERE id = ?').get(id) as RunnerRow | undefined

export const findRunnerByTokenHash = (db: Db, hash: string) =>
  stmt(db, 'SELECT * FROM ci_runners WHERE token_hash = ?').get(hash) as RunnerRow | undefined

export const findEmbeddedRunner = (db: Db) => stmt(db, 'SELECT * FROM ci_runners WHERE embedded = 1').get() as RunnerRow | undefined

export const markEmbeddedRunner = (db: Db, id: number, adminPipelinesOnly: boolean) =>
  write(db, 'ci_runners', 'UPDATE ci_runners SET embedded = 1, admin_pipelines_only = ? WHERE id = ?').run(adminPipelinesOnly ? 1 : 0, id)

export const RUNNER_EDITABLE = ['description', 'maintenance_note', 'paused', 'locked', 'run_untagged', 'tag_list', 'access_level',
  'maximum_timeout', 'token_hash', 'token_expires_at', 'name', 'version', 'revision', 'platform', 'architecture', 'executor',
  'ip_address', 'contacted_at'] as const

export function updateRunner(db: Db, id: number, fields: Partial<Pick<RunnerRow, typeof RUNNER_EDITABLE[number]>>) {
  const keys = RUNNER_EDITABLE.filter((k) => fields[k] !== undefined)
  if (!keys.length) return findRunnerById(db, id)
  return write(db, 'ci_runners', `UPDATE ci_runners SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id RETURNING *`)
    .get({ ...fields, id }) as RunnerRow | undefined
}

export const deleteRunner = (db: Db, id: number) => write(db, 'ci_runners', 'DELETE FROM ci_runners WHERE id = ?').run(id).changes > 0

export interface RunnerFilter {
  type?: RunnerType
  paused?: boolean
  /** Every one of these tags. */
  tags?: string[]
  /** Only runners of these projects (project runners) — for a project's list; instance runners are added by the caller. */
  projectId?: number
}

function where(filter: RunnerFilter, args: Record<string, unknown>): string {
  const parts: string[] = []
  if (filter.type) { parts.push('r.runner_type = @type'); args.type = filter.type }
  if (filter.paused !== undefined) { parts.push('r.paused = @paused'); args.paused = filter.paused ? 1 : 0 }
  filter.tags?.forEach((tag, i) => {
    parts.push(`EXISTS (SELECT 1 FROM json_each(r.tag_list) WHERE value = @tag${i})`)
    args[`tag${i}`] = tag
  })
  return parts.length ? parts.join(' AND ') : '1'
}

export function listRunners(db: Db, filter: RunnerFilter, limit: number, offset: number) {
  const args: Record<string, unknown> = { limit, offset }
  const cond = where(filter, args)
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM ci_runners r WHERE ${cond}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT r.* FROM ci_runners r WHERE ${cond} ORDER BY r.id LIMIT @limit OFFSET @offset`).all(args) as RunnerRow[]
  return { rows, total }
}

/** Runners a project can use: its own project runners and, when `instance`, every instance runner. */
export function listProjectRunners(db: Db, projectId: number, instance: boolean, filter: RunnerFilter, limit: number, offset: number) {
  const args: Record<string, unknown> = { limit, offset, project: projectId }
  const cond = where(filter, args)
  const mine = `(r.runner_type = 'project_type' AND EXISTS (SELECT 1 FROM ci_runner_projects p WHERE p.runner_id = r.id AND p.project_id = @project))`
  const scope = instance ? `(${mine} OR r.runner_type = 'instance_type')` : mine
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM ci_runners r WHERE ${scope} AND ${cond}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT r.* FROM ci_runners r WHERE ${scope} AND ${cond} ORDER BY r.id LIMIT @limit OFFSET @offset`).all(args) as RunnerRow[]
  return { rows, total }
}

/** Project runners of projects where the user is at least `level` (GET /runners for a non-administrator). */
export function listOwnedRunners(db: Db, projectIds: readonly number[], filter: RunnerFilter, limit: number, offset: number) {
  const args: Record<string, unknown> = { limit, offset, ids: JSON.stringify(projectIds) }
  const cond = where(filter, args)
  const scope = `r.id IN (SELECT p.runner_id FROM ci_runner_projects p WHERE p.project_id IN (SELECT value FROM json_each(@ids)))`
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM ci_runners r WHERE ${scope} AND ${cond}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT r.* FROM ci_runners r WHERE ${scope} AND ${cond} ORDER BY r.id LIMIT @limit OFFSET @offset`).all(args) as RunnerRow[]
  return { rows, total }
}

export const runnerProjectIds = (db: Db, runnerId: number) =>
  (stmt(db, 'SELECT project_id FROM ci_runner_projects WHERE runner_id = ? ORDER BY id').all(runnerId) as { project_id: number }[]).map((r) => r.project_id)

export const assignRunnerProject = (db: Db, runnerId: number, projectId: number, at: string) =>
  write(db, 'ci_runner_projects', 'INSERT OR IGNORE INTO ci_runner_projects (runner_id, project_id, created_at) VALUES (?, ?, ?)').run(runnerId, projectId, at).changes > 0

export const unassignRunnerProject = (db: Db, runnerId: number, projectId: number) =>
  write(db, 'ci_runner_projects', 'DELETE FROM ci_runner_projects WHERE runner_id = ? AND project_id = ?').run(runnerId, projectId).changes > 0

/** The registration token of a project, or of the instance for `null`. */
export const findRegistrationTokenHash = (db: Db, projectId: number | null) =>
  (projectId === null
    ? stmt(db, 'SELECT token_hash FROM ci_registration_tokens WHERE project_id IS NULL').get()
    : stmt(db, 'SELECT token_hash FROM ci_registration_tokens WHERE project_id = ?').get(projectId)) as { token_hash: string } | undefined

export const findRegistrationByHash = (db: Db, hash: string) =>
  stmt(db, 'SELECT project_id FROM ci_registration_tokens WHERE token_hash = ?').get(hash) as { project_id: number | null } | undefined

export function setRegistrationTokenHash(db: Db, projectId: number | null, hash: string, at: string) {
  if (projectId === null) write(db, 'ci_registration_tokens', 'DELETE FROM ci_registration_tokens WHERE project_id IS NULL').run()
  else write(db, 'ci_registration_tokens', 'DELETE FROM ci_registration_tokens WHERE project_id = ?').run(projectId)
  write(db, 'ci_registration_tokens', 'INSERT INTO ci_registration_tokens (project_id, token_hash, created_at) VALUES (?, ?, ?)').run(projectId, hash, at)
}

/** Jobs a runner took, newest first (GET /runners/:id/jobs). */
export function runnerJobIds(db: Db, runnerId: number, status: string | undefined, limit: number, offset: number) {
  const args = { runner: String(runnerId), status: status ?? null, limit, offset }
  const cond = 'runner_id = @runner AND (@status IS NULL OR status = @status)'
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM ci_jobs WHERE ${cond}`).get(args) as { n: number }).n
  const ids = (stmt(db, `SELECT id FROM ci_jobs WHERE ${cond} ORDER BY id DESC LIMIT @limit OFFSET @offset`).all(args) as { id: number }[]).map((r) => r.id)
  return { ids, total }
}

/** Whether any job of the runner is running now (GitLab's job_execution_status: active or idle). */
export const runnerHasRunningJob = (db: Db, runnerId: number) =>
  stmt(db, "SELECT 1 FROM ci_jobs WHERE runner_id = ? AND status = 'running' LIMIT 1").get(String(runnerId)) !== undefined
