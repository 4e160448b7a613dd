// The package registry: generic package files uploaded and downloaded (files under packages/ of the data directory),
// and the Packages API over them, with GitLab's rules (lib/api/generic_packages.rb, project_packages.rb, package_files.rb).
import { createReadStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { CollabError, forbidden } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canReadBuilds, canReadProject, DEVELOPER, effectiveProjectLevel, MAINTAINER } from '../../policy.js'
import { findJobById } from '../../store/ci-jobs.js'
import { transaction } from '../../store/db.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { findPipelineById, type PipelineRow } from '../../store/pipelines.js'
import * as store from '../../store/packages.js'
import type { PackageFileRow, PackageRow } from '../../store/packages.js'
import { findUserById, type UserRow } from '../../store/users.js'
import { findVisibleGroup } from '../groups/groups.js'
import { packageDir, packageFilePath } from './package-files.js'
import { findVisibleProject } from '../projects/projects.js'

export type { PackageFileRow, PackageRow }

// Gitlab::Regex: generic_package_name_regex (maven_file_name_regex), generic_package_version_regex
// (maven_version_regex; Ruby's \w is ASCII as JavaScript's) and generic_package_file_name_regex.
const NAME = /^[A-Za-z0-9._\-+]+$/
const VERSION = /^(?!.*\.\.)[\w+.-]+$/
const FILE_NAME = /^(?!~)[A-Za-z0-9._\-+~]+(?<!~)$/
// Gitlab::PathTraversal: a name that is `.` or `..` would name a directory (the `file_path` validator).
const TRAVERSAL = /^\.{1,2}$/
const ALLOWED_STATUSES = ['default', 'hidden']

/** Grape's validation errors, joined as GitLab answers them: `{"error":"package_name is invalid"}`. */
const paramErrors = (errors: string[]) => new CollabError('INVALID_PARAMETER', errors.join(', '), { status: 400, body: { error: errors.join(', ') } })

interface GenericInput { package_name: string; package_version: string; file_name: string; status?: string; select?: string }

function checkGenericParams(input: GenericInput) {
  const errors: string[] = []
  const path = (name: string, value: string, pattern: RegExp) => {
    if (!pattern.test(value)) errors.push(`${name} is invalid`)
    else if (TRAVERSAL.test(value)) errors.push(`${name} should be a valid file path`)
  }
  path('package_name', input.package_name, NAME)
  if (!VERSION.test(input.package_version)) errors.push('package_version is invalid')
  path('file_name', input.file_name, FILE_NAME)
  if (input.status !== undefined && !ALLOWED_STATUSES.includes(input.status)) errors.push('status does not have a valid value')
  if (input.select !== undefined && input.select !== 'package_file') errors.push('select does not have a valid value')
  if (errors.length) throw paramErrors(errors)
}

// ActiveRecord::RecordNotFound, as the API answers it.
const recordNotFound = () => new CollabError('PACKAGE_NOT_FOUND', '404 Not found', { status: 404 })

/** The pipeline of the job whose token made the request, if one did. */
const jobPipelineId = (ctx: RequestContext) => (ctx.job ? findJobById(ctx.app.db, ctx.job.id)?.pipeline_id ?? null : null)

/** `Packages::Generic::CreatePackageFileService` in one transaction: the package found or made, its status, the file row. */
function recordUpload(ctx: RequestContext, project: ProjectView, input: GenericInput, body: { size: number; md5: string; sha1: string; sha256: string }) {
  const db = ctx.app.db
  const at = nowIso(ctx)
  const pipelineId = jobPipelineId(ctx)
  return transaction(db, () => {
    let pkg = store.findGenericPackage(db, project.id, input.package_name, input.package_version)
    const created = !pkg
    if (!pkg) {
      const row = {
        project_id: project.id, name: input.package_name, version: input.package_version, package_type: 'generic',
        status: input.status ?? 'default', creator_id: ctx.user?.id ?? null, created_at: at, updated_at: at,
      }
      pkg = { id: store.insertPackage(db, row), ...row, last_downloaded_at: null }
    } else if (input.status !== undefined && input.status !== pkg.status) {
      store.setPackageStatus(db, pkg.id, input.status, at)
    } else {
      store.touchPackage(db, pkg.id, at)
    }
    if (pipelineId !== null) store.addPackageBuildInfo(db, pkg.id, pipelineId)
    const file = {
      package_id: pkg.id, file_name: input.file_name, size: body.size, file_md5: body.md5, file_sha1: body.sha1, file_sha256: body.sha256,
      created_at: at, updated_at: at,
    }
    const fileId = store.insertPackageFile(db, file)
    if (pipelineId !== null) store.addPackageFileBuildInfo(db, fileId, pipelineId)
    return { pkg, created, file: { id: fileId, ...file } as PackageFileRow }
  })
}

/**
 * PUT …/packages/generic/:package_name/:package_version/:file_name: Developers (a job token as its user), the body
 * streamed to disk (413 past the plan limit) only once the caller may upload, then moved into packages/.
 */
export async function uploadGenericFile(ctx: RequestContext, input: GenericInput & { id: string }) {
  checkGenericParams(input)
  const project = findVisibleProject(ctx, input.id)
  if (effectiveProjectLevel(ctx, project) < DEVELOPER) throw forbidden()
  const body = await ctx.receiveBody!()
  const { pkg, created, file } = recordUpload(ctx, project, input, body)
  const target = packageFilePath(ctx.app.layout, { projectId: project.id, packageId: pkg.id, fileId: file.id })
  try {
    await mkdir(packageDir(ctx.app.layout, project.id, pkg.id), { recursive: true })
    await rename(body.path, target)
  } catch (err) {
    // Nothing may list a file that is not on disk.
    transaction(ctx.app.db, () => {
      store.deletePackageFileRow(ctx.app.db, file.id)
      if (created) store.deletePackageRow(ctx.app.db, pkg.id)
    })
    throw err
  }
  return { project, file }
}

export interface PackageDownload { stream: Readable; size: number; fileName: string; sha256: string | null }

/** GET …/packages/generic/…: the newest file of that name of an installable package (hidden ones too), streamed. */
export async function downloadGenericFile(ctx: RequestContext, input: GenericInput & { id: string }): Promise<PackageDownload> {
  checkGenericParams(input)
  const project = findVisibleProject(ctx, input.id)
  const pkg = store.findInstallableGenericPackage(ctx.app.db, project.id, input.package_name, input.package_version)
  const file = pkg && store.latestPackageFileNamed(ctx.app.db, pkg.id, input.file_name)
  if (!pkg || !file) throw recordNotFound()
  const path = packageFilePath(ctx.app.layout, { projectId: project.id, packageId: pkg.id, fileId: file.id })
  const size = await stat(path).then((s) => s.size, () => null)
  if (size === null) throw recordNotFound()
  store.markPackageDownloaded(ctx.app.db, pkg.id, nowIso(ctx))
  // 1 MiB reads, as artifacts are sent.
  return { stream: createReadStream(path, { highWaterMark: 1024 * 1024 }), size, fileName: file.file_name, sha256: file.file_sha256 }
}

export interface PackageListInput {
  order_by?: store.PackageFilters['orderBy']
  sort?: 'asc' | 'desc'
  package_type?: string
  package_name?: string
  package_version?: string
  include_versionless?: boolean
  status?: string
}

const filtersOf = (ctx: RequestContext, projectIds: number[], input: PackageListInput): store.PackageFilters => ({
  projectIds, packageType: input.package_type, packageName: input.package_name, packageVersion: input.package_version,
  includeVersionless: input.include_versionless, status: input.status, orderBy: input.order_by ?? 'created_at', sort: input.sort ?? 'asc',
  limit: ctx.page.limit, offset: ctx.page.offset,
})

export function listProjectPackages(ctx: RequestContext, id: string, input: PackageListInput) {
  const project = findVisibleProject(ctx, id)
  return { project, ...store.listPackages(ctx.app.db, filtersOf(ctx, [project.id], input)) }
}

/** GroupPackagesFinder: the packages of the group's projects (and its subgroups') that the caller may read. */
export function listGroupPackages(ctx: RequestContext, id: string, input: PackageListInput & { exclude_subgroups?: boolean }) {
  const group = findVisibleGroup(ctx, id)
  const projects = new Map<number, ProjectView>()
  for (const projectId of store.groupProjectIds(ctx.app.db, group, input.exclude_subgroups === true)) {
    const project = findProjectById(ctx.app.db, projectId)
    if (project && canReadProject(ctx, project)) projects.set(project.id, project)
  }
  return { projects, ...store.listPackages(ctx.app.db, filtersOf(ctx, [...projects.keys()], input)) }
}

function findPackage(ctx: RequestContext, project: ProjectView, packageId: number): PackageRow {
  const pkg = store.findProjectPackage(ctx.app.db, project.id, packageId)
  if (!pkg) throw recordNotFound()
  return pkg
}

/** `detailed_info?`: only default and deprecated packages are shown one at a time. */
const detailed = (pkg: PackageRow) => pkg.status === 'default' || pkg.status === 'deprecated'

export function getProjectPackage(ctx: RequestContext, id: string, packageId: number) {
  const project = findVisibleProject(ctx, id)
  const pkg = findPackage(ctx, project, packageId)
  if (!detailed(pkg)) throw new CollabError('PACKAGE_NOT_FOUND', 'Package not found', { status: 404 })
  return { project, pkg, versions: store.otherVersions(ctx.app.db, pkg) }
}

/** `destroy_package`: Maintainers. */
export const canDestroyPackages = (ctx: RequestContext, project: ProjectView) => effectiveProjectLevel(ctx, project) >= MAINTAINER

function destroyableProject(ctx: RequestContext, id: string) {
  const project = findVisibleProject(ctx, id)
  if (!canDestroyPackages(ctx, project)) throw forbidden()
  return project
}

/** Removes the package, its files' rows and then the files (GitLab marks it pending_destruction and a worker deletes). */
export async function deleteProjectPackage(ctx: RequestContext, id: string, packageId: number) {
  const project = destroyableProject(ctx, id)
  const pkg = findPackage(ctx, project, packageId)
  store.deletePackageRow(ctx.app.db, pkg.id)
  await rm(packageDir(ctx.app.layout, project.id, pkg.id), { recursive: true, force: true })
}

export function listPackageFiles(ctx: RequestContext, id: string, packageId: number, input: { order_by?: 'id' | 'created_at' | 'file_name'; sort?: 'asc' | 'desc' }) {
  const project = findVisibleProject(ctx, id)
  const pkg = findPackage(ctx, project, packageId)
  const page = store.listPackageFiles(ctx.app.db, pkg.id, { orderBy: input.order_by ?? 'id', sort: input.sort ?? 'asc', limit: ctx.page.limit, offset: ctx.page.offset })
  return { project, ...page }
}

export async function deletePackageFile(ctx: RequestContext, id: string, packageId: number, fileId: number) {
  const project = destroyableProject(ctx, id)
  const pkg = findPackage(ctx, project, packageId)
  const file = store.findPackageFile(ctx.app.db, pkg.id, fileId)
  if (!file) throw recordNotFound()
  store.deletePackageFileRow(ctx.app.db, file.id)
  await rm(packageFilePath(ctx.app.layout, { projectId: project.id, packageId: pkg.id, fileId: file.id }), { force: true })
}

/** The pipelines that published packages or files, by id, for presenters (which read nothing themselves). */
export function pipelinesFor(ctx: RequestContext, byOwner: Map<number, number[]>) {
  const out = new Map<number, { row: PipelineRow; projectPath: string; user: UserRow | null }>()
  for (const ids of byOwner.values()) {
    for (const id of ids) {
      if (out.has(id)) continue
      const row = findPipelineById(ctx.app.db, id)
      const project = row && findProjectById(ctx.app.db, row.project_id)
      if (!row || !project) continue
      out.set(id, { row, projectPath: `${project.ns_full_path}/${project.path}`, user: row.user_id === null ? null : findUserById(ctx.app.db, row.user_id) ?? null })
    }
  }
  return out
}

export const packagePipelineIds = (ctx: RequestContext, packageIds: readonly number[]) => store.packagePipelineIds(ctx.app.db, packageIds)

/** A file's pipelines are shown to those who may read the project's pipelines (`read_pipeline`). */
export const filePipelineIds = (ctx: RequestContext, project: ProjectView, fileIds: readonly number[]) =>
  canReadBuilds(ctx, project) ? store.packageFilePipelineIds(ctx.app.db, fileIds) : new Map<number, number[]>()
