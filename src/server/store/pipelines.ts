// Pipelines: rows, their variables, the filtered list query (compat-mr-ci-wiki §4.7) and the lookups joins need.
import { stmt, write, type Db } from './db.js'
import { SQL_CANCELABLE, SQL_FINISHED } from './status-sets.js'
import { openedRows, sealSecret } from './secrets.js'

export interface PipelineRow {
  id: number
  project_id: number
  iid: number
  sha: string
  before_sha: string | null
  ref: string
  tag: number
  source: string
  status: string
  yaml_errors: string | null
  stages: string
  user_id: number | null
  merge_request_id: number | null
  coverage: string | null
  created_at: string
  updated_at: string
  started_at: string | null
  finished_at: string | null
  committed_at: string | null
  duration: number | null
  queued_duration: number | null
}

export type NewPipeline = Omit<PipelineRow, 'id' | 'coverage' | 'started_at' | 'finished_at' | 'duration' | 'queued_duration'>
export type PipelinePatch = Partial<Omit<PipelineRow, 'id' | 'project_id' | 'iid' | 'created_at'>>

export interface PipelineVariableRow { pipeline_id: number; key: string; value: string; variable_type: string }

export function insertPipeline(db: Db, p: NewPipeline): PipelineRow {
  const cols = Object.keys(p)
  return write(db, 'pipelines', `INSERT INTO pipelines (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')}) RETURNING *`).get(p) as PipelineRow
}

export function updatePipeline(db: Db, id: number, patch: PipelinePatch) {
  const cols = Object.keys(patch)
  if (cols.length) write(db, 'pipelines', `UPDATE pipelines SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

/** The pipeline, its jobs (by cascade) and the statuses external CI posted into it: GitLab keeps those as its jobs. */
export function deletePipelineRow(db: Db, id: number) {
  write(db, 'commit_statuses', 'DELETE FROM commit_statuses WHERE pipeline_id = ?').run(id)
  write(db, 'pipelines', 'DELETE FROM pipelines WHERE id = ?').run(id)
}

export const findPipelineById = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM pipelines WHERE id = ?').get(id) as PipelineRow | undefined

export const findProjectPipeline = (db: Db, projectId: number, id: number) =>
  stmt(db, 'SELECT * FROM pipelines WHERE project_id = ? AND id = ?').get(projectId, id) as PipelineRow | undefined

/** The newest pipeline of a ref (GitLab's `latest` and a branch's `last_pipeline`), optionally of one sha. */
export function latestPipeline(db: Db, projectId: number, f: { ref?: string; sha?: string; mergeRequestId?: number }) {
  const where = ['project_id = @project']
  const args: Record<string, unknown> = { project: projectId }
  if (f.ref !== undefined) { where.push('ref = @ref'); args.ref = f.ref }
  if (f.sha !== undefined) { where.push('sha = @sha'); args.sha = f.sha }
  if (f.mergeRequestId !== undefined) { where.push('merge_request_id = @mr'); args.mr = f.mergeRequestId }
  return stmt(db, `SELECT * FROM pipelines WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT 1`).get(args) as PipelineRow | undefined
}

/**
 * Pipelines of a merge request, newest first: its own merge_request_event pipelines and those of its source branch
 * at one of its commits.
 */
export function mergeRequestPipelines(db: Db, mr: { id: number; source_project_id: number | null; source_branch: string }) {
  return stmt(db, `SELECT * FROM pipelines WHERE merge_request_id = @mr
    OR (project_id = @project AND ref = @ref AND tag = 0 AND merge_request_id IS NULL
      AND sha IN (SELECT sha FROM merge_request_commits WHERE merge_request_id = @mr))
    ORDER BY id DESC`).all({ mr: mr.id, project: mr.source_project_id, ref: mr.source_branch }) as PipelineRow[]
}

/** The head pipeline of a merge request: the newest of its pipelines at its source head. */
export const headPipeline = (db: Db, mr: { id: number; source_project_id: number | null; source_branch: string; source_sha: string | null }) =>
  mr.source_sha === null ? undefined : stmt(db, `SELECT * FROM pipelines WHERE sha = @sha AND (merge_request_id = @mr
    OR (project_id = @project AND ref = @ref AND tag = 0 AND merge_request_id IS NULL)) ORDER BY id DESC LIMIT 1`)
    .get({ mr: mr.id, project: mr.source_project_id, ref: mr.source_branch, sha: mr.source_sha }) as PipelineRow | undefined

export function insertPipelineVariables(db: Db, pipelineId: number, vars: { key: string; value: string; variable_type?: string }[]) {
  const s = write(db, 'pipeline_variables', `INSERT INTO pipeline_variables (pipeline_id, key, value, variable_type) VALUES (?, ?, ?, ?)
    ON CONFLICT (pipeline_id, key) DO UPDATE SET value = excluded.value, variable_type = excluded.variable_type`)
  for (const v of vars) s.run(pipelineId, v.key, sealSecret(db, v.value), v.variable_type ?? 'env_var')
}

export const pipelineVariables = (db: Db, pipelineId: number) =>
  openedRows(db, 'value', stmt(db, 'SELECT * FROM pipeline_variables WHERE pipeline_id = ? ORDER BY key').all(pipelineId) as PipelineVariableRow[])

export interface PipelineFilters {
  projectId: number
  scope?: 'running' | 'pending' | 'finished' | 'branches' | 'tags'
  status?: string
  ref?: string
  sha?: string
  yamlErrors?: boolean
  username?: string
  source?: string
  updatedAfter?: string
  updatedBefore?: string
  createdAfter?: string
  createdBefore?: string
  orderBy: 'id' | 'status' | 'ref' | 'user_id' | 'updated_at'
  sort: 'asc' | 'desc'
  limit: number
  offset: number
}

function scopeClause(scope: PipelineFilters['scope'], where: string[]) {
  if (scope === 'running' || scope === 'pending') where.push(`p.status = '${scope}'`)
  else if (scope === 'finished') where.push(`p.status IN ${SQL_FINISHED}`)
  // Only the newest pipeline of each branch or tag (Ci::PipelinesFinder#ids_for_ref).
  else if (scope === 'branches' || scope === 'tags') {
    where.push(`p.tag = ${scope === 'tags' ? 1 : 0}`)
    // A merge request pipeline's refs/merge-requests/<iid>/head is no branch (no branch name starts with refs/).
    if (scope === 'branches') where.push("p.ref NOT LIKE 'refs/%'")
    where.push('p.id = (SELECT MAX(q.id) FROM pipelines q WHERE q.project_id = p.project_id AND q.ref = p.ref AND q.tag = p.tag)')
  }
}

export function listPipelines(db: Db, f: PipelineFilters): { rows: PipelineRow[]; total: number } {
  const where = ['p.project_id = @project']
  const args: Record<string, unknown> = { project: f.projectId }
  scopeClause(f.scope, where)
  const eq: [keyof PipelineFilters, string][] = [['status', 'p.status'], ['ref', 'p.ref'], ['sha', 'p.sha'], ['source', 'p.source']]
  for (const [key, col] of eq) if (f[key] !== undefined) { where.push(`${col} = @${key}`); args[key] = f[key] }
  if (f.yamlErrors !== undefined) where.push(f.yamlErrors ? 'p.yaml_errors IS NOT NULL' : 'p.yaml_errors IS NULL')
  if (f.username !== undefined) {
    where.push('p.user_id IN (SELECT id FROM users WHERE username = @username COLLATE NOCASE)')
    args.username = f.username
  }
  const range: [keyof PipelineFilters, string, string][] = [
    ['createdAfter', 'p.created_at >=', 'ca'], ['createdBefore', 'p.created_at <=', 'cb'],
    ['updatedAfter', 'p.updated_at >=', 'ua'], ['updatedBefore', 'p.updated_at <=', 'ub'],
  ]
  for (const [key, cond, name] of range) if (f[key] !== undefined) { where.push(`${cond} @${name}`); args[name] = f[key] }
  const clause = where.join(' AND ')
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM pipelines p WHERE ${clause}`).get(args) as { n: number }).n
  const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
  const order = f.orderBy === 'id' ? `p.id ${dir}` : `p.${f.orderBy} ${dir}, p.id ${dir}`
  const rows = stmt(db, `SELECT p.* FROM pipelines p WHERE ${clause} ORDER BY ${order} LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as PipelineRow[]
  return { rows, total }
}

/** Current statuses posted by external CI into a pipeline (commit_statuses joined to it), for its composite status. */
export const pipelineCommitStatuses = (db: Db, pipelineId: number) =>
  stmt(db, 'SELECT status, allow_failure FROM commit_statuses WHERE pipeline_id = ? AND retried = 0').all(pipelineId) as { status: string; allow_failure: number }[]

/** Older pipelines of a branch that have not finished, newest first (the candidates of auto-cancel). */
export const unfinishedPipelinesBefore = (db: Db, projectId: number, ref: string, beforeId: number) =>
  stmt(db, `SELECT * FROM pipelines WHERE project_id = ? AND ref = ? AND tag = 0 AND id < ?
    AND status IN ${SQL_CANCELABLE} ORDER BY id DESC`)
    .all(projectId, ref, beforeId) as PipelineRow[]
