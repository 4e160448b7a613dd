// Job lists of the Jobs API (project and pipeline, by scope), lookups by ref for artifacts, and job tokens to jobs.
import { stmt, type Db } from './db.js'
import type { JobRow } from './ci-jobs.js'

export interface JobListFilters {
  /** Statuses to keep; empty or absent keeps all. */
  statuses?: readonly string[]
  includeRetried: boolean
  limit: number
  offset: number
}

function statusClause(statuses: readonly string[] | undefined, args: Record<string, unknown>): string {
  if (!statuses?.length) return ''
  statuses.forEach((s, i) => { args[`s${i}`] = s })
  return ` AND status IN (${statuses.map((_, i) => `@s${i}`).join(', ')})`
}

/** A project's jobs, newest first (GitLab orders by id desc); retried tries are kept, as GitLab's project list does. */
export function listProjectJobs(db: Db, projectId: number, f: JobListFilters) {
  const args: Record<string, unknown> = { project: projectId }
  const where = `project_id = @project${f.includeRetried ? '' : ' AND retried = 0'}${statusClause(f.statuses, args)}`
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM ci_jobs WHERE ${where}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM ci_jobs WHERE ${where} ORDER BY id DESC LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as JobRow[]
  return { rows, total }
}

/** A pipeline's jobs in GitLab's order (by id); retried tries only when asked for. */
export function listPipelineJobs(db: Db, pipelineId: number, f: JobListFilters) {
  const args: Record<string, unknown> = { pipeline: pipelineId }
  const where = `pipeline_id = @pipeline${f.includeRetried ? '' : ' AND retried = 0'}${statusClause(f.statuses, args)}`
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM ci_jobs WHERE ${where}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM ci_jobs WHERE ${where} ORDER BY id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as JobRow[]
  return { rows, total }
}

export const findProjectJob = (db: Db, projectId: number, id: number) =>
  stmt(db, 'SELECT * FROM ci_jobs WHERE project_id = ? AND id = ?').get(projectId, id) as JobRow | undefined

/**
 * The job named `name` with an unexpired archive in the newest successful pipeline of a ref that has one, among the
 * last 100 successful pipelines (GitLab's latest_successful_build_for_ref!).
 */
export function latestSuccessfulJobWithArtifacts(db: Db, projectId: number, ref: string, name: string, now: string) {
  return stmt(db, `SELECT j.* FROM ci_jobs j JOIN (
      SELECT id FROM pipelines WHERE project_id = @project AND ref = @ref AND status = 'success' ORDER BY id DESC LIMIT 100
    ) p ON p.id = j.pipeline_id
    WHERE j.name = @name AND j.retried = 0 AND j.artifacts_file IS NOT NULL
      AND (j.artifacts_expire_at IS NULL OR j.artifacts_expire_at > @now)
    ORDER BY j.pipeline_id DESC, j.id DESC LIMIT 1`).get({ project: projectId, ref, name, now }) as JobRow | undefined
}

/** The running job a token belongs to; a job that ended has no token any more (the coordinator clears it). */
export const findRunningJobByTokenHash = (db: Db, hash: string) =>
  stmt(db, "SELECT * FROM ci_jobs WHERE token_hash = ? AND status = 'running'").get(hash) as JobRow | undefined
