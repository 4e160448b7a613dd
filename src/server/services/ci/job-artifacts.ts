// Artifacts and traces through the Jobs API: downloads (archive, one entry, by ref), erase, keep, delete.
import { stat } from 'node:fs/promises'
import { createReadStream } from 'node:fs'
import { basename } from 'node:path'
import type { Readable } from 'node:stream'
import { CollabError, forbidden } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { artifactsPath, eraseArtifacts, readArtifactEntry } from '../../ci/artifacts.js'
import { readZipListing } from '../../ci/artifacts-metadata.js'
import { eraseTrace, readTrace, traceSize } from '../../ci/traces.js'
import { effectiveProjectLevel, MAINTAINER, requireProjectLevel } from '../../policy.js'
import { artifactsAvailable, COMPLETED_STATUSES } from '../../../core/job-status.js'
import * as writes from '../../store/ci-job-artifacts.js'
import type { JobRow } from '../../store/ci-jobs.js'
import { findJobById } from '../../store/ci-jobs.js'
import { latestSuccessfulJobWithArtifacts } from '../../store/ci-job-lists.js'
import type { ProjectView } from '../../store/projects.js'
import { actionable, findJob, jobsProject, jobNotFound } from './jobs.js'

export interface Download { stream: Readable; size: number; contentType: string; filename: string }

const nowOf = (ctx: RequestContext) => ctx.app.clock.now()
// GitLab's bare not_found!: a JSON 404 without a resource name.
const noArtifacts = () => new CollabError('ARTIFACTS_NOT_FOUND', '404 Not Found', { status: 404 })

/** `Gitlab::Ci::Build::Artifacts::Path#valid?`: no NUL, valid UTF-8 (a bad escape is left undecoded by the router). */
function validEntryPath(path: string): boolean {
  if (path.includes('\0')) return false
  if (!/%[0-9a-fA-F]{2}/.test(path)) return true
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

export async function jobTrace(ctx: RequestContext, id: string, jobId: number): Promise<Buffer> {
  const project = jobsProject(ctx, id)
  return readTrace(ctx.app.layout, findJob(ctx, project, jobId).id)
}

/**
 * The log's bytes from an offset on (a follower reads only what is new), where they start and the size they end at;
 * an offset past the log's end (the log was erased meanwhile) reads it again from the start.
 */
export async function jobTraceFrom(ctx: RequestContext, id: string, jobId: number, offset: number) {
  const job = findJob(ctx, jobsProject(ctx, id), jobId)
  const from = offset <= traceSize(ctx.app.layout, job.id) ? offset : 0
  const bytes = await readTrace(ctx.app.layout, job.id, from)
  return { from, bytes, size: from + bytes.length }
}

/** The files of a job's archive (path and size), for the job page to list; empty when it has none to download. */
export async function jobArtifactFiles(ctx: RequestContext, id: string, jobId: number): Promise<{ path: string; size: number }[]> {
  const job = findJob(ctx, jobsProject(ctx, id), jobId)
  if (!artifactsAvailable(job, nowOf(ctx))) return []
  const listing = await readZipListing(artifactsPath(ctx.app.layout, job.id)).catch(() => new Map<string, { size: number } | null>())
  return [...listing].filter(([path, m]) => m !== null && !path.endsWith('/')).map(([path, m]) => ({ path, size: m!.size }))
}

async function archiveOf(ctx: RequestContext, job: JobRow): Promise<Download> {
  if (!artifactsAvailable(job, nowOf(ctx))) throw noArtifacts()
  const file = artifactsPath(ctx.app.layout, job.id)
  const size = await stat(file).then((s) => s.size, () => null)
  if (size === null) throw noArtifacts()
  // 1 MiB reads: a 100 MB archive took ~60 ms on loopback against ~80 ms with the 64 KiB default.
  return { stream: createReadStream(file, { highWaterMark: 1024 * 1024 }), size, contentType: 'application/octet-stream', filename: 'artifacts.zip' }
}

/** One file of the archive; null when the zip has no such entry (Workhorse's plain-text 404). */
async function entryOf(ctx: RequestContext, job: JobRow, path: string): Promise<Download | null> {
  if (!validEntryPath(path)) throw new CollabError('BAD_ARTIFACT_PATH', '400 Bad request', { status: 400 })
  const entry = await readArtifactEntry(ctx.app.layout, job.id, path)
  return entry && { stream: entry.stream, size: entry.size, contentType: entry.contentType, filename: basename(path) }
}

export async function jobArchive(ctx: RequestContext, id: string, jobId: number) {
  const project = jobsProject(ctx, id)
  return archiveOf(ctx, findJob(ctx, project, jobId))
}

export async function jobArtifactEntry(ctx: RequestContext, id: string, jobId: number, path: string) {
  const project = jobsProject(ctx, id)
  const job = findJob(ctx, project, jobId)
  if (!artifactsAvailable(job, nowOf(ctx))) throw noArtifacts()
  return entryOf(ctx, job, path)
}

function refJob(ctx: RequestContext, id: string, ref: string, name: string) {
  const project = jobsProject(ctx, id)
  const job = latestSuccessfulJobWithArtifacts(ctx.app.db, project.id, ref, name, nowOf(ctx).toISOString())
  if (!job) throw jobNotFound()
  return job
}

export const refArchive = (ctx: RequestContext, id: string, ref: string, name: string) => archiveOf(ctx, refJob(ctx, id, ref, name))

export const refArtifactEntry = (ctx: RequestContext, id: string, ref: string, name: string, path: string) =>
  entryOf(ctx, refJob(ctx, id, ref, name), path)

/** Erase: a finished job with artifacts or a log loses both (403 `Job is not erasable!` otherwise). */
export async function erase(ctx: RequestContext, id: string, jobId: number) {
  const { project, job } = actionable(ctx, id, jobId)
  // erase_build: Maintainers, or the Developer who started the job (Ci::BuildPolicy's owner_of_job).
  if (effectiveProjectLevel(ctx, project) < MAINTAINER && job.user_id !== ctx.user?.id) throw forbidden()
  const erasable = COMPLETED_STATUSES.has(job.status) && (job.artifacts_file !== null || traceSize(ctx.app.layout, job.id) > 0)
  if (!erasable) throw forbidden('Job is not erasable!')
  await eraseArtifacts(ctx.app.layout, job.id)
  await eraseTrace(ctx.app.layout, job.id)
  writes.markJobErased(ctx.app.db, job.id, ctx.user?.id ?? null, nowOf(ctx).toISOString())
  return { project, job: findJobById(ctx.app.db, job.id)! }
}

export function keep(ctx: RequestContext, id: string, jobId: number) {
  const { project, job } = actionable(ctx, id, jobId)
  if (!artifactsAvailable(job, nowOf(ctx))) throw noArtifacts()
  writes.markArtifactsKept(ctx.app.db, job.id, nowOf(ctx).toISOString())
  return { project, job: findJobById(ctx.app.db, job.id)! }
}

async function dropArtifacts(ctx: RequestContext, job: JobRow) {
  await eraseArtifacts(ctx.app.layout, job.id)
  writes.clearJobArtifacts(ctx.app.db, job.id, nowOf(ctx).toISOString())
}

function maintainersProject(ctx: RequestContext, id: string): ProjectView {
  const project = jobsProject(ctx, id)
  requireProjectLevel(ctx, project, MAINTAINER)
  if (project.archived) throw forbidden()
  return project
}

export async function deleteJobArtifacts(ctx: RequestContext, id: string, jobId: number) {
  const project = maintainersProject(ctx, id)
  await dropArtifacts(ctx, findJob(ctx, project, jobId))
}

export async function deleteProjectArtifacts(ctx: RequestContext, id: string) {
  const project = maintainersProject(ctx, id)
  for (const job of writes.deletableArtifactJobs(ctx.app.db, project.id)) await dropArtifacts(ctx, job)
}
