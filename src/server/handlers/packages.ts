// The package registry: generic package uploads and downloads, the Packages API, and the plan limits.
import type { contract } from '../../contract/index.js'
import type { HandlerResult, RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentPackage, presentPackageFile, presentPackageFileRecord } from '../present/packages.js'
import * as packages from '../services/releases/index.js'
import type { PackageRow } from '../services/releases/index.js'
import { planLimits, updatePlanLimits } from '../services/instance/index.js'
import type { ProjectView } from '../store/projects.js'
import { attachment } from './jobs.js'

const projectPathOf = (p: ProjectView) => `${p.ns_full_path}/${p.path}`

/** Packages with what their entity shows: the pipelines that published them, and whether the caller may delete them. */
function presentPackages(ctx: RequestContext, rows: PackageRow[], projectOf: (row: PackageRow) => ProjectView, group = false) {
  const byPackage = packages.packagePipelineIds(ctx, rows.map((r) => r.id))
  const pipelines = packages.pipelinesFor(ctx, byPackage)
  return rows.map((row) => {
    const project = projectOf(row)
    return presentPackage(row, ctx, {
      projectPath: projectPathOf(project), canDestroy: packages.canDestroyPackages(ctx, project), group,
      pipelines: (byPackage.get(row.id) ?? []).flatMap((id) => pipelines.get(id) ?? []),
    })
  })
}

export const packageHandlers = {
  uploadGenericPackageFile: async (input, ctx) => {
    const { project, file } = await packages.uploadGenericFile(ctx, input)
    return { status: 201, body: input.select === 'package_file' ? presentPackageFileRecord(file, project.id) : { message: '201 Created' } }
  },
  downloadGenericPackageFile: async (input, ctx): Promise<HandlerResult> => {
    const d = await packages.downloadGenericFile(ctx, input)
    return {
      status: 200, stream: d.stream,
      headers: {
        'Content-Type': 'application/octet-stream', 'Content-Length': String(d.size), 'Content-Disposition': attachment(d.fileName),
        ...(d.sha256 ? { 'X-Checksum-SHA256': d.sha256 } : {}),
      },
    }
  },
  listProjectPackages: (input, ctx) => {
    const { project, rows, total } = packages.listProjectPackages(ctx, input.id, input)
    return { status: 200, body: presentPackages(ctx, rows, () => project), total }
  },
  listGroupPackages: (input, ctx) => {
    const { projects, rows, total } = packages.listGroupPackages(ctx, input.id, input)
    return { status: 200, body: presentPackages(ctx, rows, (row) => projects.get(row.project_id)!, true), total }
  },
  getProjectPackage: (input, ctx) => {
    const { project, pkg, versions } = packages.getProjectPackage(ctx, input.id, input.package_id)
    const byPackage = packages.packagePipelineIds(ctx, [pkg.id, ...versions.map((v) => v.id)])
    const pipelines = packages.pipelinesFor(ctx, byPackage)
    const of = (id: number) => (byPackage.get(id) ?? []).flatMap((p) => pipelines.get(p) ?? [])
    const body = presentPackage(pkg, ctx, {
      projectPath: projectPathOf(project), canDestroy: packages.canDestroyPackages(ctx, project), pipelines: of(pkg.id),
      versions: versions.map((row) => ({ row, pipelines: of(row.id) })),
    })
    return { status: 200, body }
  },
  deleteProjectPackage: async (input, ctx) => {
    await packages.deleteProjectPackage(ctx, input.id, input.package_id)
    return { status: 204 }
  },
  listPackageFiles: (input, ctx) => {
    const { project, rows, total } = packages.listPackageFiles(ctx, input.id, input.package_id, input)
    const byFile = packages.filePipelineIds(ctx, project, rows.map((f) => f.id))
    const pipelines = packages.pipelinesFor(ctx, byFile)
    const body = rows.map((f) => presentPackageFile(f, (byFile.get(f.id) ?? []).flatMap((id) => pipelines.get(id) ?? []), ctx))
    return { status: 200, body, total }
  },
  deletePackageFile: async (input, ctx) => {
    await packages.deletePackageFile(ctx, input.id, input.package_id, input.package_file_id)
    return { status: 204 }
  },
  getPlanLimits: (input, ctx) => ({ status: 200, body: planLimits(ctx, input.plan_name) }),
  updatePlanLimits: (input, ctx) => ({ status: 200, body: updatePlanLimits(ctx, input) }),
} satisfies Handlers<typeof contract.packages>
