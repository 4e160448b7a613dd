// Which pending jobs a runner may take (Ci::Runner#matches_build? and the queue's project and protection filters).
import type { AppDeps } from '../context.js'
import type { JobRow } from '../store/ci-jobs.js'
import type { RunnerRow } from '../store/ci-runners.js'
import { findProjectById } from '../store/projects.js'
import { findUserById } from '../store/users.js'
import { specOf } from './scheduler.js'
import { refProtected } from './variables.js'

/**
 * A runner takes a job when it serves the job's project (a project runner: one of its projects; an instance runner:
 * a project with shared runners on), has every tag the job asks for (an untagged job needs run_untagged), and, when
 * protected-only, the job runs for a protected branch. A merge request's ref (refs/merge-requests/…) counts as not
 * protected here: such a pipeline is protected only in the rare case both of its branches are. A runner that cannot
 * isolate jobs takes only those of pipelines an administrator started.
 */
export function runnerAccepts(app: AppDeps, runner: RunnerRow, projects: readonly number[] | null, job: JobRow): boolean {
  if (runner.paused) return false
  if (projects !== null && !projects.includes(job.project_id)) return false
  const project = findProjectById(app.db, job.project_id)
  if (!project) return false
  if (runner.runner_type === 'instance_type' && project.shared_runners_enabled !== 1) return false
  const wanted = specOf(job).tags ?? []
  if (!wanted.length && runner.run_untagged !== 1) return false
  const has = new Set(JSON.parse(runner.tag_list) as string[])
  if (!wanted.every((t) => has.has(t))) return false
  if (runner.admin_pipelines_only && !(job.user_id !== null && findUserById(app.db, job.user_id)?.is_admin === 1)) return false
  if (runner.access_level === 'ref_protected') {
    if (job.ref.startsWith('refs/')) return false
    if (!refProtected(app, { project, ref: job.ref, tag: job.tag === 1, mergeRequest: undefined })) return false
  }
  return true
}
