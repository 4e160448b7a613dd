// The Jobs API: project and pipeline job lists, one job, its trace, actions, artifacts, and GET /job for job tokens.
import type { contract } from '../../contract/index.js'
import type { HandlerResult, RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentJob } from '../present/jobs.js'
import * as artifacts from '../services/ci/index.js'
import * as jobs from '../services/ci/index.js'
import type { JobRow } from '../store/ci-jobs.js'
import type { ProjectView } from '../store/projects.js'

async function one(ctx: RequestContext, status: number, r: { project: ProjectView; job: JobRow }): Promise<HandlerResult> {
  return { status, body: presentJob(await jobs.bundleJob(ctx, r.project, r.job), ctx) }
}

async function page(ctx: RequestContext, project: ProjectView, r: { rows: JobRow[]; total: number }): Promise<HandlerResult> {
  const bundles = await jobs.bundleJobs(ctx, project, r.rows)
  return { status: 200, body: bundles.map((b) => presentJob(b, ctx)), total: r.total }
}

// RFC 6266 with filename*, as Rails' ContentDisposition.format writes it for present_disk_file!.
export const attachment = (name: string) => `attachment; filename="${name.replace(/["\\]/g, '\\$&')}"; filename*=UTF-8''${encodeURIComponent(name)}`

function archive(d: artifacts.Download): HandlerResult {
  return {
    status: 200, stream: d.stream,
    headers: { 'Content-Type': d.contentType, 'Content-Length': String(d.size), 'Content-Transfer-Encoding': 'binary', 'Content-Disposition': attachment(d.filename) },
  }
}

/** One zip entry as Workhorse sends it; a missing entry is its plain-text 404, not the API's JSON. */
function entry(d: artifacts.Download | null): HandlerResult {
  if (!d) return { status: 404, raw: 'Not Found\n', headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '10' } }
  const name = d.filename.replace(/["\\\r\n]/g, '_')
  return {
    status: 200, stream: d.stream,
    headers: { 'Content-Type': d.contentType, 'Content-Length': String(d.size), 'Content-Disposition': `attachment; filename="${name}"` },
  }
}

export const jobHandlers = {
  listProjectJobs: (input, ctx) => {
    const project = jobs.jobsProject(ctx, input.id)
    return page(ctx, project, jobs.listProjectJobs(ctx, project, input.scope))
  },
  listPipelineJobs: (input, ctx) => {
    const project = jobs.jobsProject(ctx, input.id)
    return page(ctx, project, jobs.listPipelineJobs(ctx, project, input.pipeline_id, input.scope, input.include_retried))
  },
  getJob: (input, ctx) => {
    const project = jobs.jobsProject(ctx, input.id)
    return one(ctx, 200, { project, job: jobs.findJob(ctx, project, input.job_id) })
  },
  getJobTrace: async (input, ctx) => {
    const trace = await artifacts.jobTrace(ctx, input.id, input.job_id)
    return {
      status: 200, raw: trace,
      headers: {
        'Content-Type': 'text/plain', 'Content-Length': String(trace.length), 'Content-Disposition': `infile; filename="${input.job_id}.log"`,
        // `collab job trace --follow` reads only what was appended since (the mount answers Range for raw bodies offering it).
        'Accept-Ranges': 'bytes',
      },
    }
  },
  cancelJob: (input, ctx) => one(ctx, 201, jobs.cancelJob(ctx, input.id, input.job_id, input.force)),
  retryJob: (input, ctx) => one(ctx, 201, jobs.retryJob(ctx, input.id, input.job_id)),
  playJob: (input, ctx) => one(ctx, 200, jobs.play(ctx, input.id, input.job_id, input.job_variables_attributes)),
  eraseJob: async (input, ctx) => one(ctx, 201, await artifacts.erase(ctx, input.id, input.job_id)),
  keepJobArtifacts: (input, ctx) => one(ctx, 200, artifacts.keep(ctx, input.id, input.job_id)),
  deleteJobArtifacts: async (input, ctx) => {
    await artifacts.deleteJobArtifacts(ctx, input.id, input.job_id)
    return { status: 204 }
  },
  deleteProjectArtifacts: async (input, ctx) => {
    await artifacts.deleteProjectArtifacts(ctx, input.id)
    return { status: 202, body: { message: '202 Accepted' } }
  },
  downloadJobArtifacts: async (input, ctx) => archive(await artifacts.jobArchive(ctx, input.id, input.job_id)),
  getJobArtifactFile: async (input, ctx) => entry(await artifacts.jobArtifactEntry(ctx, input.id, input.job_id, input.artifact_path)),
  downloadRefArtifacts: async (input, ctx) => archive(await artifacts.refArchive(ctx, input.id, input.ref_name, input.job)),
  getRefArtifactFile: async (input, ctx) =>
    entry(await artifacts.refArtifactEntry(ctx, input.id, input.ref_name, input.job, input.artifact_path)),
  getCurrentJob: (_input, ctx) => one(ctx, 200, jobs.currentJob(ctx)),
} satisfies Handlers<typeof contract.jobs>
