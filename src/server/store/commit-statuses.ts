// Commit statuses: the current row per (sha, ref, name), superseded rows kept for `all`.
import { stmt, write, type Db } from './db.js'

export interface CommitStatusRow {
  id: number
  project_id: number
  sha: string
  ref: string | null
  name: string
  stage: string
  status: 'pending' | 'running' | 'success' | 'failed' | 'canceled'
  target_url: string | null
  description: string | null
  coverage: number | null
  pipeline_id: number | null
  allow_failure: number
  author_id: number
  created_at: string
  updated_at: string
  started_at: string | null
  finished_at: string | null
  retried: number
}

export type NewCommitStatus = Omit<CommitStatusRow, 'id' | 'retried'>

export function findCurrentStatus(db: Db, projectId: number, sha: string, ref: string | null, name: string) {
  return stmt(db, 'SELECT * FROM commit_statuses WHERE project_id = ? AND sha = ? AND ref IS ? AND name = ? AND retried = 0 ORDER BY id DESC LIMIT 1')
    .get(projectId, sha, ref, name) as CommitStatusRow | undefined
}

export function insertStatus(db: Db, s: NewCommitStatus): number {
  const cols = Object.keys(s)
  return Number(write(db, 'commit_statuses', `INSERT INTO commit_statuses (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')})`).run(s).lastInsertRowid)
}

export function updateStatus(db: Db, id: number, patch: Partial<CommitStatusRow>) {
  const cols = Object.keys(patch)
  if (cols.length) write(db, 'commit_statuses', `UPDATE commit_statuses SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const markRetried = (db: Db, id: number) => write(db, 'commit_statuses', 'UPDATE commit_statuses SET retried = 1 WHERE id = ?').run(id)

export const findStatusById = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM commit_statuses WHERE id = ?').get(id) as CommitStatusRow | undefined

export interface StatusFilters { ref?: string; stage?: string; name?: string; all?: boolean; limit: number; offset: number }

/**
 * Posted statuses and CI jobs together: GitLab keeps both as commit statuses of the commit's pipelines, so the list
 * shows jobs too (a job's target_url and description are empty; jobs of deleted users are left out).
 */
const STATUSES_AND_JOBS = `(SELECT id, project_id, sha, ref, name, stage, status, target_url, description, coverage, pipeline_id, allow_failure,
    author_id, created_at, updated_at, started_at, finished_at, retried FROM commit_statuses
  UNION ALL SELECT id, project_id, sha, ref, name, stage, status, NULL, NULL, coverage, pipeline_id, allow_failure,
    user_id, created_at, updated_at, started_at, finished_at, retried FROM ci_jobs WHERE user_id IS NOT NULL)`

export function listStatuses(db: Db, projectId: number, sha: string, f: StatusFilters) {
  const where = ['project_id = @project', 'sha = @sha']
  const args: Record<string, unknown> = { project: projectId, sha }
  if (!f.all) where.push('retried = 0')
  if (f.ref !== undefined) { where.push('ref = @ref'); args.ref = f.ref }
  if (f.stage !== undefined) { where.push('stage = @stage'); args.stage = f.stage }
  if (f.name !== undefined) { where.push('name = @name'); args.name = f.name }
  const clause = where.join(' AND ')
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM ${STATUSES_AND_JOBS} WHERE ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM ${STATUSES_AND_JOBS} WHERE ${clause} ORDER BY created_at, id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as CommitStatusRow[]
  return { rows, total }
}

/** Current statuses of a commit (every ref), for the commit's combined `status`. */
export function currentStatuses(db: Db, projectId: number, sha: string) {
  return stmt(db, 'SELECT status, allow_failure FROM commit_statuses WHERE project_id = ? AND sha = ? AND retried = 0')
    .all(projectId, sha) as Pick<CommitStatusRow, 'status' | 'allow_failure'>[]
}
