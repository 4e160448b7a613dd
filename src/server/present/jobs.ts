// Jobs as GitLab 17 serializes them (Entities::Ci::JobBasic + Entities::Ci::Job): field order and conditions kept.
import { artifactsAvailable, COMPLETED_STATUSES } from '../../core/job-status.js'
import type { Job } from '../../contract/entities/jobs.js'
import type { RequestContext } from '../context.js'
import type { CommitInfo } from '../git/types.js'
import type { JobRow } from '../store/ci-jobs.js'
import type { PipelineRow } from '../store/pipelines.js'
import type { ProjectView } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { presentCommit } from './commits.js'
import { presentPipelineBasic } from './pipelines.js'
import { projectFullPath } from '../../core/project-path.js'
import { presentUser } from './users.js'

/** What a job's JSON is made of, gathered by the service. */
export interface JobBundle {
  job: JobRow
  pipeline: PipelineRow
  project: ProjectView
  user: UserRow | null
  commit: CommitInfo | null
  /** Bytes of the log on disk. */
  traceSize: number
  now: Date
}

type Urls = Pick<RequestContext, 'baseUrl'>

/** Statuses of a job that has ended (GitLab's `complete?`). */
const seconds = (from: string | null, to: Date | null) => (from && to ? (to.getTime() - Date.parse(from)) / 1000 : null)


function artifactsOf(b: JobBundle): Job['artifacts'] {
  const out: Job['artifacts'] = []
  const { job } = b
  if (job.artifacts_file !== null) {
    out.push({ file_type: 'archive', size: job.artifacts_size ?? 0, filename: 'artifacts.zip', file_format: 'zip' })
    if (job.artifacts_metadata_size !== null) out.push({ file_type: 'metadata', size: job.artifacts_metadata_size, filename: 'metadata.gz', file_format: 'gzip' })
  }
  // A running job's log is a live trace, not yet an artifact: GitLab archives it as job.log when the job ends.
  if (COMPLETED_STATUSES.has(job.status) && b.traceSize > 0) out.push({ file_type: 'trace', size: b.traceSize, filename: 'job.log', file_format: 'raw' })
  return out
}

// The built-in runner; its id is the runner_id a job was taken by (numeric for remote runners later).
function runnerOf(job: JobRow): Job['runner'] {
  if (job.runner_id === null) return null
  const id = /^\d+$/.test(job.runner_id) ? Number(job.runner_id) : 1
  return {
    id, description: 'collab built-in shell runner', ip_address: null, active: true, paused: false, is_shared: true,
    runner_type: 'instance_type', name: 'collab', online: true, status: 'online',
  }
}

export function presentJob(b: JobBundle, ctx: Urls): Job {
  const { job, pipeline, project } = b
  const running = job.status === 'running' ? b.now : null
  const out: Job = {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: job.ref,
    tag: job.tag === 1,
    coverage: job.coverage,
    allow_failure: job.allow_failure === 1,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    erased_at: job.erased_at,
    duration: seconds(job.started_at, job.finished_at ? new Date(job.finished_at) : running),
    queued_duration: seconds(job.queued_at, job.started_at ? new Date(job.started_at) : job.status === 'pending' ? b.now : null),
    user: b.user ? presentUser(b.user, ctx) : null,
    commit: b.commit ? presentCommit(b.commit, project, ctx) : null,
    pipeline: presentPipelineBasic(pipeline, projectFullPath(project), ctx),
  } as Job
  if (job.status === 'failed') out.failure_reason = job.failure_reason ?? 'unknown_failure'
  out.web_url = `${ctx.baseUrl}/${projectFullPath(project)}/-/jobs/${job.id}`
  out.project = { ci_job_token_scope_enabled: false }
  if (artifactsAvailable(job, b.now)) out.artifacts_file = { filename: 'artifacts.zip', size: job.artifacts_size ?? 0 }
  out.artifacts = artifactsOf(b)
  out.runner = runnerOf(job)
  out.artifacts_expire_at = job.artifacts_expire_at
  out.archived = false
  out.tag_list = []
  return out
}
