// CI jobs (GitLab's builds): rows, the queue the coordinator takes from, and the lookups the scheduler needs.
import { stmt, write, type Db } from './db.js'

export interface JobRow {
  id: number
  project_id: number
  pipeline_id: number
  name: string
  stage: string
  stage_idx: number
  status: string
  when_: string
  allow_failure: number
  spec: string
  ref: string
  tag: number
  sha: string
  user_id: number | null
  token_hash: string | null
  retried: number
  retry_count: number
  failure_reason: string | null
  exit_code: number | null
  coverage: number | null
  runner_id: string | null
  created_at: string
  queued_at: string | null
  started_at: string | null
  finished_at: string | null
  scheduled_at: string | null
  erased_at: string | null
  erased_by_id: number | null
  trace_size: number
  artifacts_file: string | null
  artifacts_size: number | null
  artifacts_metadata_size: number | null
  artifacts_expire_at: string | null
  updated_at: string
}

export type NewJob = Pick<JobRow, 'project_id' | 'pipeline_id' | 'name' | 'stage' | 'stage_idx' | 'status' | 'when_' | 'allow_failure' | 'spec' |
  'ref' | 'tag' | 'sha' | 'user_id' | 'created_at' | 'updated_at'> & Partial<Pick<JobRow, 'retry_count' | 'scheduled_at' | 'queued_at'>>
export type JobPatch = Partial<Omit<JobRow, 'id' | 'project_id' | 'pipeline_id' | 'created_at'>>

export function insertJob(db: Db, job: NewJob): JobRow {
  const cols = Object.keys(job)
  return write(db, 'ci_jobs', `INSERT INTO ci_jobs (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')}) RETURNING *`).get(job) as JobRow
}

export function updateJob(db: Db, id: number, patch: JobPatch) {
  const cols = Object.keys(patch)
  if (cols.length) write(db, 'ci_jobs', `UPDATE ci_jobs SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

/** Moves a job only while it still has one of `from` statuses; false when someone else moved it first. */
export function transitionJob(db: Db, id: number, from: readonly string[], patch: JobPatch): boolean {
  const cols = Object.keys(patch)
  const marks = from.map((_, i) => `@from${i}`).join(', ')
  const args: Record<string, unknown> = { ...patch, id }
  from.forEach((s, i) => { args[`from${i}`] = s })
  return write(db, 'ci_jobs', `UPDATE ci_jobs SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id AND status IN (${marks})`).run(args).changes > 0
}

export const findJobById = (db: Db, id: number) => stmt(db, 'SELECT * FROM ci_jobs WHERE id = ?').get(id) as JobRow | undefined

/** Every job of a pipeline, retried ones included, in stage then creation order. */
/** Every job of a project, for erasing their traces and artifacts with it. */
export const projectJobIds = (db: Db, projectId: number) =>
  (stmt(db, 'SELECT id FROM ci_jobs WHERE project_id = ?').all(projectId) as { id: number }[]).map((r) => r.id)

export const pipelineJobs = (db: Db, pipelineId: number) =>
  stmt(db, 'SELECT * FROM ci_jobs WHERE pipeline_id = ? ORDER BY stage_idx, id').all(pipelineId) as JobRow[]

/** The latest try of each job of a pipeline. */
export const latestPipelineJobs = (db: Db, pipelineId: number) =>
  stmt(db, 'SELECT * FROM ci_jobs WHERE pipeline_id = ? AND retried = 0 ORDER BY stage_idx, id').all(pipelineId) as JobRow[]

/** The oldest pending job, the queue's head. */
export const oldestPendingJob = (db: Db) =>
  stmt(db, "SELECT * FROM ci_jobs WHERE status = 'pending' ORDER BY id LIMIT 1").get() as JobRow | undefined

/** Every pending job, oldest first: a runner with tags or projects takes the first it accepts. */
export const pendingJobs = (db: Db) => stmt(db, "SELECT * FROM ci_jobs WHERE status = 'pending' ORDER BY id").all() as JobRow[]

export const runningJobs = (db: Db) => stmt(db, "SELECT * FROM ci_jobs WHERE status = 'running' ORDER BY id").all() as JobRow[]

/** Running jobs nobody reported on since `before` (no log, no state update): their runner is gone. */
export const staleRunningJobs = (db: Db, before: string) =>
  stmt(db, "SELECT * FROM ci_jobs WHERE status = 'running' AND updated_at < ? ORDER BY id").all(before) as JobRow[]

/** Delayed jobs whose time has come. */
export const dueScheduledJobs = (db: Db, now: string) =>
  stmt(db, "SELECT * FROM ci_jobs WHERE status = 'scheduled' AND scheduled_at <= ? ORDER BY scheduled_at, id").all(now) as JobRow[]

export const nextScheduledAt = (db: Db) =>
  (stmt(db, "SELECT MIN(scheduled_at) AS at FROM ci_jobs WHERE status = 'scheduled'").get() as { at: string | null }).at

export const jobsWithExpiredArtifacts = (db: Db, now: string, limit: number) =>
  stmt(db, 'SELECT * FROM ci_jobs WHERE artifacts_file IS NOT NULL AND artifacts_expire_at IS NOT NULL AND artifacts_expire_at <= ? LIMIT ?')
    .all(now, limit) as JobRow[]

/** Latest jobs of every pipeline of a commit, for the commit's statuses list. */
export const commitJobs = (db: Db, projectId: number, sha: string) =>
  stmt(db, 'SELECT * FROM ci_jobs WHERE project_id = ? AND sha = ? ORDER BY id').all(projectId, sha) as JobRow[]

export const artifactJobsOfPipeline = (db: Db, pipelineId: number) =>
  stmt(db, 'SELECT * FROM ci_jobs WHERE pipeline_id = ? AND artifacts_file IS NOT NULL').all(pipelineId) as JobRow[]
