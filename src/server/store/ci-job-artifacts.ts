// Writes of the Jobs API on jobs: erase, keep and delete artifacts (the files go in ci/artifacts.ts), variables of a play.
import { stmt, write, type Db } from './db.js'
import { SQL_COMPLETED } from './status-sets.js'
import type { JobRow } from './ci-jobs.js'

const NO_ARTIFACTS = 'artifacts_file = NULL, artifacts_size = NULL, artifacts_metadata_size = NULL, artifacts_expire_at = NULL'

export function markJobErased(db: Db, id: number, by: number | null, now: string) {
  write(db, 'ci_jobs', `UPDATE ci_jobs SET ${NO_ARTIFACTS}, trace_size = 0, erased_at = @now, erased_by_id = @by, updated_at = @now WHERE id = @id`)
    .run({ id, by, now })
}

export const markArtifactsKept = (db: Db, id: number, now: string) =>
  write(db, 'ci_jobs', 'UPDATE ci_jobs SET artifacts_expire_at = NULL, updated_at = ? WHERE id = ?').run(now, id)

export const clearJobArtifacts = (db: Db, id: number, now: string) =>
  write(db, 'ci_jobs', `UPDATE ci_jobs SET ${NO_ARTIFACTS}, updated_at = ? WHERE id = ?`).run(now, id)

/**
 * Finished jobs of a project whose artifacts DELETE /projects/:id/artifacts removes: all but those of the newest
 * successful pipeline of each ref, which GitLab keeps (keep_latest_artifact, on by default).
 */
export const deletableArtifactJobs = (db: Db, projectId: number) =>
  stmt(db, `SELECT * FROM ci_jobs WHERE project_id = @project AND artifacts_file IS NOT NULL
      AND status IN ${SQL_COMPLETED}
      AND pipeline_id NOT IN (SELECT MAX(id) FROM pipelines WHERE project_id = @project AND status = 'success' GROUP BY ref)`)
    .all({ project: projectId }) as JobRow[]

/** The planned job with other variables (a play's job_variables_attributes), before it is queued. */
export const setJobSpec = (db: Db, id: number, spec: string, now: string) =>
  write(db, 'ci_jobs', 'UPDATE ci_jobs SET spec = ?, updated_at = ? WHERE id = ?').run(spec, now, id)
