// The package registry (GitLab's lib/api/generic_packages.rb, project_packages.rb, group_packages.rb, package_files.rb)
// and the plan limits that cap it (lib/api/admin/plan_limits.rb).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { CreatedMessage, Package, PackageFile, PackageFileRecord, PlanLimits } from '../entities/packages.js'
import { bool, int, oneOf, ref, str } from '../params.js'

const Id = { id: ref() }
const Raw = z.string()

/** `Packages::Package.package_types`. */
export const PACKAGE_TYPES = ['maven', 'npm', 'conan', 'nuget', 'pypi', 'composer', 'generic', 'golang', 'debian', 'rubygems', 'helm',
  'terraform_module', 'rpm', 'ml_model', 'cargo'] as const
/** `Packages::Package.statuses`. */
export const PACKAGE_STATUSES = ['default', 'hidden', 'processing', 'error', 'pending_destruction', 'deprecated'] as const

// Checked by the service, which answers Grape's own words for them (`package_name is invalid`).
const GenericFile = { ...Id, package_name: str(1024), package_version: str(1024), file_name: str(1024) }

export const uploadGenericPackageFile = defineEndpoint({
  method: 'PUT', path: '/projects/:id/packages/generic/:package_name/:package_version/:file_name',
  summary: 'Upload a file to a generic package (the body is the file); `select=package_file` answers its record',
  params: GenericFile, input: { status: str().optional(), select: str().optional() },
  rawBody: true, uploadsToDisk: 'packages', jobToken: true, basicAuth: true,
  responses: { 201: z.union([PackageFileRecord, CreatedMessage]) },
})

export const downloadGenericPackageFile = defineEndpoint({
  method: 'GET', path: '/projects/:id/packages/generic/:package_name/:package_version/:file_name',
  summary: 'Download the newest file of that name of a generic package', raw: true,
  auth: 'optional', jobToken: true, basicAuth: true, params: GenericFile, responses: { 200: Raw },
})

const Filters = {
  sort: oneOf(['asc', 'desc']).optional(),
  package_type: oneOf(PACKAGE_TYPES).optional(),
  package_name: str().optional(),
  package_version: str().optional(),
  include_versionless: bool().optional(),
  status: oneOf(PACKAGE_STATUSES).optional(),
}

export const listProjectPackages = defineEndpoint({
  method: 'GET', path: '/projects/:id/packages', summary: "List a project's packages", paginated: true,
  auth: 'optional', jobToken: true, params: Id,
  input: { ...Filters, order_by: oneOf(['created_at', 'name', 'version', 'type']).optional() },
  responses: { 200: z.array(Package) },
})

export const listGroupPackages = defineEndpoint({
  method: 'GET', path: '/groups/:id/packages', summary: "List the packages of a group's projects (and its subgroups')", paginated: true,
  auth: 'optional', params: Id,
  input: { ...Filters, order_by: oneOf(['created_at', 'name', 'version', 'type', 'project_path']).optional(), exclude_subgroups: bool().optional() },
  responses: { 200: z.array(Package) },
})

const OnePackage = { ...Id, package_id: int() }

export const getProjectPackage = defineEndpoint({
  method: 'GET', path: '/projects/:id/packages/:package_id', summary: 'Get a project package',
  auth: 'optional', jobToken: true, params: OnePackage, responses: { 200: Package },
})

export const deleteProjectPackage = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/packages/:package_id', summary: 'Delete a project package and its files (Maintainers)',
  jobToken: true, params: OnePackage, responses: { 204: null },
})

export const listPackageFiles = defineEndpoint({
  method: 'GET', path: '/projects/:id/packages/:package_id/package_files', summary: "List a package's files", paginated: true,
  auth: 'optional', jobToken: true, params: OnePackage,
  input: { order_by: oneOf(['id', 'created_at', 'file_name']).optional(), sort: oneOf(['asc', 'desc']).optional() },
  responses: { 200: z.array(PackageFile) },
})

export const deletePackageFile = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/packages/:package_id/package_files/:package_file_id', summary: 'Delete a package file (Maintainers)',
  jobToken: true, params: { ...OnePackage, package_file_id: int() }, responses: { 204: null },
})

/** Self-managed GitLab has one plan. */
const PlanName = oneOf(['default'])

export const getPlanLimits = defineEndpoint({
  method: 'GET', path: '/application/plan_limits', summary: 'Get the limits of a plan (administrators)', auth: 'admin',
  input: { plan_name: PlanName.optional() }, responses: { 200: PlanLimits },
})

export const updatePlanLimits = defineEndpoint({
  method: 'PUT', path: '/application/plan_limits', summary: 'Change the limits of a plan (administrators)', auth: 'admin',
  input: { plan_name: PlanName, generic_packages_max_file_size: int().optional() }, responses: { 200: PlanLimits },
})
