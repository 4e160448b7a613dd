// Packages as GitLab serializes them: Entities::Package (project and group lists, one package with its versions),
// Entities::PackageFile, and the package file record the generic upload answers with `select=package_file`.
import { createHash } from 'node:crypto'
import type { Package, PackageFile, PackageFileRecord } from '../../contract/entities/packages.js'
import type { RequestContext } from '../context.js'
import type { PackageFileRow, PackageRow } from '../store/packages.js'
import type { PipelineRow } from '../store/pipelines.js'
import type { UserRow } from '../store/users.js'
import { presentPipelineBasic } from './pipelines.js'
import { presentUserBasic } from './users.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

export interface PipelineBundle { row: PipelineRow; projectPath: string; user: UserRow | null }

/** `Entities::Package::Pipeline`. */
const presentPackagePipeline = (p: PipelineBundle, ctx: Urls) =>
  ({ ...presentPipelineBasic(p.row, p.projectPath, ctx), user: p.user && presentUserBasic(p.user, ctx) })

export interface PackageExtras {
  projectPath: string
  /** The caller may delete it (`delete_api_path`). */
  canDestroy: boolean
  /** Pipelines whose jobs published it, oldest first. */
  pipelines: PipelineBundle[]
  /** Group lists show where each package lives. */
  group?: boolean
  /** A single package shows its name's other versions. */
  versions?: { row: PackageRow; pipelines: PipelineBundle[] }[]
}

const detailed = (p: PackageRow) => p.status === 'default' || p.status === 'deprecated'

export function presentPackage(p: PackageRow, ctx: Urls, x: PackageExtras): Package {
  const last = x.pipelines.at(-1)
  return {
    id: p.id,
    name: p.name,
    version: p.version,
    package_type: p.package_type,
    status: p.status,
    _links: {
      ...(detailed(p) ? { web_path: `/${x.projectPath}/-/packages/${p.id}` } : {}),
      ...(x.canDestroy ? { delete_api_path: `${ctx.apiUrl}/projects/${p.project_id}/packages/${p.id}` } : {}),
    },
    created_at: p.created_at,
    last_downloaded_at: p.last_downloaded_at,
    ...(x.group ? { project_id: p.project_id, project_path: x.projectPath } : {}),
    tags: [],
    ...(last ? { pipeline: presentPackagePipeline(last, ctx) } : {}),
    // GitLab 16 deprecated the list: it stays, empty, on packages that have pipelines.
    ...(x.pipelines.length ? { pipelines: [] } : {}),
    ...(x.versions ? { versions: x.versions.map((v) => presentPackageVersion(v.row, v.pipelines, ctx)) } : {}),
  }
}

function presentPackageVersion(p: PackageRow, pipelines: PipelineBundle[], ctx: Urls) {
  const last = pipelines.at(-1)
  return { id: p.id, version: p.version, created_at: p.created_at, tags: [], ...(last ? { pipeline: presentPackagePipeline(last, ctx) } : {}) }
}

export const presentPackageFile = (f: PackageFileRow, pipelines: PipelineBundle[], ctx: Urls): PackageFile => ({
  id: f.id,
  package_id: f.package_id,
  created_at: f.created_at,
  file_name: f.file_name,
  size: f.size,
  file_md5: f.file_md5,
  file_sha1: f.file_sha1,
  file_sha256: f.file_sha256,
  ...(pipelines.length ? { pipelines: pipelines.map((p) => presentPackagePipeline(p, ctx)) } : {}),
})

/**
 * The package file model as JSON (Grape presents it without an entity). `file.url` is its path in GitLab's hashed
 * storage: the sha256 of the project id, as `@hashed` repositories are laid out.
 */
export function presentPackageFileRecord(f: PackageFileRow, projectId: number): PackageFileRecord {
  const hash = createHash('sha256').update(String(projectId)).digest('hex')
  return {
    id: f.id,
    package_id: f.package_id,
    created_at: f.created_at,
    updated_at: f.updated_at,
    size: f.size,
    file_store: 1,
    file_md5: f.file_md5,
    file_sha1: f.file_sha1,
    file_name: f.file_name,
    file: { url: `/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}/packages/${f.package_id}/files/${f.id}/${f.file_name}` },
    file_sha256: f.file_sha256,
    verification_retry_at: null,
    verified_at: null,
    verification_failure: null,
    verification_retry_count: null,
    verification_checksum: null,
    verification_state: 0,
    verification_started_at: null,
    status: 'default',
    file_final_path: null,
    project_id: projectId,
    new_file_path: null,
  }
}
