// The package registry's rows: packages, their files, the pipelines that published them, and the plan limits.
import { inIds, stmt, write, type Db } from './db.js'
import { likePattern } from './users.js'

export interface PackageRow {
  id: number
  project_id: number
  name: string
  version: string | null
  package_type: string
  status: string
  creator_id: number | null
  created_at: string
  updated_at: string
  last_downloaded_at: string | null
}

export interface PackageFileRow {
  id: number
  package_id: number
  file_name: string
  size: number
  file_md5: string | null
  file_sha1: string | null
  file_sha256: string | null
  created_at: string
  updated_at: string
}

/** `Packages::Package.installable`: what a package manager (or the generic download) may fetch. */
const INSTALLABLE = "('default', 'hidden')"
/** `displayable`: what lists show unless asked for a status. */
const DISPLAYABLE = "('default', 'deprecated', 'error')"

/** The generic package of this name and version that new files join (GitLab's FindOrCreatePackageService). */
export const findGenericPackage = (db: Db, projectId: number, name: string, version: string) =>
  stmt(db, `SELECT * FROM packages WHERE project_id = ? AND package_type = 'generic' AND name = ? AND version = ?
    AND status != 'pending_destruction' ORDER BY id DESC LIMIT 1`).get(projectId, name, version) as PackageRow | undefined

/** The generic package a download reads: installable only (hidden too). */
export const findInstallableGenericPackage = (db: Db, projectId: number, name: string, version: string) =>
  stmt(db, `SELECT * FROM packages WHERE project_id = ? AND package_type = 'generic' AND name = ? AND version = ?
    AND status IN ${INSTALLABLE} ORDER BY id DESC LIMIT 1`).get(projectId, name, version) as PackageRow | undefined

/** `Packages::PackageFinder`: a displayable package of the project. */
export const findProjectPackage = (db: Db, projectId: number, id: number) =>
  stmt(db, `SELECT * FROM packages WHERE project_id = ? AND id = ? AND status IN ${DISPLAYABLE}`).get(projectId, id) as PackageRow | undefined

export function insertPackage(db: Db, row: Omit<PackageRow, 'id' | 'last_downloaded_at'>): number {
  return Number(write(db, 'packages', `INSERT INTO packages (project_id, name, version, package_type, status, creator_id, created_at, updated_at)
    VALUES (@project_id, @name, @version, @package_type, @status, @creator_id, @created_at, @updated_at)`).run(row).lastInsertRowid)
}

export const setPackageStatus = (db: Db, id: number, status: string, at: string) =>
  write(db, 'packages', 'UPDATE packages SET status = ?, updated_at = ? WHERE id = ?').run(status, at, id)

export const touchPackage = (db: Db, id: number, at: string) => write(db, 'packages', 'UPDATE packages SET updated_at = ? WHERE id = ?').run(at, id)

export const markPackageDownloaded = (db: Db, id: number, at: string) =>
  write(db, 'packages', 'UPDATE packages SET last_downloaded_at = ? WHERE id = ?').run(at, id)

export const deletePackageRow = (db: Db, id: number) => write(db, 'packages', 'DELETE FROM packages WHERE id = ?').run(id)

/** A pipeline recorded once per package (`build_infos.safe_find_or_create_by!`). */
export function addPackageBuildInfo(db: Db, packageId: number, pipelineId: number) {
  const known = stmt(db, 'SELECT 1 FROM package_build_infos WHERE package_id = ? AND pipeline_id = ?').get(packageId, pipelineId)
  if (!known) write(db, 'package_build_infos', 'INSERT INTO package_build_infos (package_id, pipeline_id) VALUES (?, ?)').run(packageId, pipelineId)
}

export function insertPackageFile(db: Db, row: Omit<PackageFileRow, 'id'>): number {
  return Number(write(db, 'package_files', `INSERT INTO package_files (package_id, file_name, size, file_md5, file_sha1, file_sha256, created_at, updated_at)
    VALUES (@package_id, @file_name, @size, @file_md5, @file_sha1, @file_sha256, @created_at, @updated_at)`).run(row).lastInsertRowid)
}

export const addPackageFileBuildInfo = (db: Db, fileId: number, pipelineId: number) =>
  write(db, 'package_file_build_infos', 'INSERT INTO package_file_build_infos (package_file_id, pipeline_id) VALUES (?, ?)').run(fileId, pipelineId)

export const findPackageFile = (db: Db, packageId: number, id: number) =>
  stmt(db, 'SELECT * FROM package_files WHERE package_id = ? AND id = ?').get(packageId, id) as PackageFileRow | undefined

/** `PackageFileFinder#execute!`: the newest file of that name. */
export const latestPackageFileNamed = (db: Db, packageId: number, fileName: string) =>
  stmt(db, 'SELECT * FROM package_files WHERE package_id = ? AND file_name = ? ORDER BY id DESC LIMIT 1').get(packageId, fileName) as PackageFileRow | undefined

export const deletePackageFileRow = (db: Db, id: number) => write(db, 'package_files', 'DELETE FROM package_files WHERE id = ?').run(id)

export const countPackageFiles = (db: Db, packageId: number) =>
  (stmt(db, 'SELECT COUNT(*) AS n FROM package_files WHERE package_id = ?').get(packageId) as { n: number }).n

const FILE_ORDERS = { id: 'id', created_at: 'created_at', file_name: 'file_name' } as const

export function listPackageFiles(db: Db, packageId: number, f: { orderBy: keyof typeof FILE_ORDERS; sort: 'asc' | 'desc'; limit: number; offset: number }) {
  const total = countPackageFiles(db, packageId)
  const rows = stmt(db, `SELECT * FROM package_files WHERE package_id = @packageId
    ORDER BY ${FILE_ORDERS[f.orderBy]} ${f.sort}, id ${f.sort} LIMIT @limit OFFSET @offset`)
    .all({ packageId, limit: f.limit, offset: f.offset }) as PackageFileRow[]
  return { rows, total }
}

export interface PackageFilters {
  projectIds: readonly number[]
  packageType?: string
  packageName?: string
  packageVersion?: string
  includeVersionless?: boolean
  status?: string
  orderBy: 'created_at' | 'name' | 'version' | 'type' | 'project_path'
  sort: 'asc' | 'desc'
  limit: number
  offset: number
}

const PACKAGE_ORDERS = { created_at: 'pk.created_at', name: 'pk.name', version: 'pk.version', type: 'pk.package_type', project_path: "n.full_path || '/' || pr.path" } as const

/** `Packages::PackagesFinder` / `GroupPackagesFinder` over the given projects. */
export function listPackages(db: Db, f: PackageFilters): { rows: PackageRow[]; total: number } {
  const args: Record<string, unknown> = {}
  const where = [`pk.project_id ${inIds('project', f.projectIds, args)}`]
  if (!f.includeVersionless || f.packageVersion !== undefined) where.push('pk.version IS NOT NULL')
  if (f.packageType !== undefined) { where.push('pk.package_type = @type'); args.type = f.packageType }
  if (f.packageName !== undefined) { where.push("pk.name LIKE @name ESCAPE '\\'"); args.name = likePattern(f.packageName) }
  if (f.packageVersion !== undefined) { where.push('pk.version = @version'); args.version = f.packageVersion }
  if (f.status !== undefined) { where.push('pk.status = @status'); args.status = f.status } else where.push(`pk.status IN ${DISPLAYABLE}`)
  const clause = where.join(' AND ')
  const joins = f.orderBy === 'project_path' ? 'JOIN projects pr ON pr.id = pk.project_id JOIN namespaces n ON n.id = pr.namespace_id' : ''
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM packages pk WHERE ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT pk.* FROM packages pk ${joins} WHERE ${clause}
    ORDER BY ${PACKAGE_ORDERS[f.orderBy]} ${f.sort}, pk.id ${f.sort} LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as PackageRow[]
  return { rows, total }
}

/** Ids of the projects in a group, and in its subgroups unless `own` (GitLab's exclude_subgroups). */
export function groupProjectIds(db: Db, group: { id: number; full_path: string }, own: boolean): number[] {
  const sql = own
    ? 'SELECT p.id FROM projects p WHERE p.namespace_id = @id'
    : "SELECT p.id FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE n.id = @id OR n.full_path LIKE @below ESCAPE '\\'"
  const below = `${group.full_path.replace(/[\\%_]/g, (c) => '\\' + c)}/%`
  return (stmt(db, sql).all(own ? { id: group.id } : { id: group.id, below }) as { id: number }[]).map((r) => r.id)
}

/** The pipelines (ids, oldest first) whose jobs published these packages; deleted pipelines are left out. */
export function packagePipelineIds(db: Db, packageIds: readonly number[]): Map<number, number[]> {
  const args: Record<string, unknown> = {}
  const rows = stmt(db, `SELECT package_id, pipeline_id FROM package_build_infos
    WHERE package_id ${inIds('pkg', packageIds, args)} AND pipeline_id IS NOT NULL ORDER BY id`).all(args) as { package_id: number; pipeline_id: number }[]
  return groupIds(rows.map((r) => [r.package_id, r.pipeline_id]))
}

export function packageFilePipelineIds(db: Db, fileIds: readonly number[]): Map<number, number[]> {
  const args: Record<string, unknown> = {}
  const rows = stmt(db, `SELECT package_file_id, pipeline_id FROM package_file_build_infos
    WHERE package_file_id ${inIds('file', fileIds, args)} AND pipeline_id IS NOT NULL ORDER BY id`).all(args) as { package_file_id: number; pipeline_id: number }[]
  return groupIds(rows.map((r) => [r.package_file_id, r.pipeline_id]))
}

function groupIds(pairs: [number, number][]): Map<number, number[]> {
  const out = new Map<number, number[]>()
  for (const [key, id] of pairs) {
    const list = out.get(key) ?? []
    if (!list.includes(id)) list.push(id)
    out.set(key, list)
  }
  return out
}

/** Other versions of a package's name in its project (`Packages::Package#versions`), by version. */
export const otherVersions = (db: Db, p: PackageRow) =>
  stmt(db, `SELECT * FROM packages WHERE project_id = ? AND package_type = ? AND name = ? AND version != ?
    AND status IN ${DISPLAYABLE} ORDER BY version, id`).all(p.project_id, p.package_type, p.name, p.version ?? '') as PackageRow[]

export interface PlanLimitsRow { plan_name: string; generic_packages_max_file_size: number }

export const findPlanLimits = (db: Db, plan: string) =>
  stmt(db, 'SELECT * FROM plan_limits WHERE plan_name = ?').get(plan) as PlanLimitsRow | undefined

export const updatePlanLimits = (db: Db, plan: string, patch: { generic_packages_max_file_size: number }) =>
  write(db, 'plan_limits', 'UPDATE plan_limits SET generic_packages_max_file_size = @size WHERE plan_name = @plan').run({ plan, size: patch.generic_packages_max_file_size })
