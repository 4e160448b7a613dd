// Protected branches (compat-mr-ci-wiki §5): the protected_branches API and the legacy branch protect/unprotect routes.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { ProtectedBranch } from '../entities/protected-branches.js'
import { Branch } from '../entities/repository.js'
import { bool, int, ref, str } from '../params.js'

const Id = { id: ref() }
const Named = { ...Id, name: str(1024) }
// ProtectedRefAccess::ALLOWED_ACCESS_LEVELS: no one, developers, maintainers, administrators.
export const level = () => int().refine((v) => [0, 30, 40, 60].includes(v), { error: 'does not have a valid value' })
// `allowed_to_push[][access_level]=30` (python-gitlab, newer clients); users, groups and deploy keys are EE's and are not kept.
export const allowed = () => z.array(z.object({
  access_level: level().optional(), user_id: int().optional(), group_id: int().optional(), deploy_key_id: int().optional(),
}), { error: 'is invalid' }).optional()
const Settings = {
  push_access_level: level().optional(), merge_access_level: level().optional(), unprotect_access_level: level().optional(),
  allowed_to_push: allowed(), allowed_to_merge: allowed(), allowed_to_unprotect: allowed(),
  allow_force_push: bool().optional(), code_owner_approval_required: bool().optional(),
}

export const listProtectedBranches = defineEndpoint({
  method: 'GET', path: '/projects/:id/protected_branches', summary: 'List protected branches', paginated: true,
  params: Id, input: { search: str().optional() }, responses: { 200: z.array(ProtectedBranch) },
})

export const getProtectedBranch = defineEndpoint({
  method: 'GET', path: '/projects/:id/protected_branches/:name', summary: 'Get a protected branch or wildcard by name',
  params: Named, responses: { 200: ProtectedBranch },
})

export const protectBranch = defineEndpoint({
  method: 'POST', path: '/projects/:id/protected_branches', summary: 'Protect a branch or a wildcard (`release/*`)',
  params: Id, input: { name: str(1024), ...Settings }, responses: { 201: ProtectedBranch },
})

export const updateProtectedBranch = defineEndpoint({
  method: 'PATCH', path: '/projects/:id/protected_branches/:name', summary: 'Update a protected branch',
  params: Named, input: Settings, responses: { 200: ProtectedBranch },
})

export const unprotectBranch = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/protected_branches/:name', summary: 'Unprotect a branch or wildcard',
  params: Named, responses: { 204: null },
})

export const protectRepositoryBranch = defineEndpoint({
  method: 'PUT', path: '/projects/:id/repository/branches/:branch/protect', summary: 'Protect a branch (legacy, python-gitlab 2 branch.protect())',
  params: { ...Id, branch: str(1024) }, input: { developers_can_push: bool().optional(), developers_can_merge: bool().optional() },
  responses: { 200: Branch },
})

export const unprotectRepositoryBranch = defineEndpoint({
  method: 'PUT', path: '/projects/:id/repository/branches/:branch/unprotect', summary: 'Unprotect a branch (legacy)',
  params: { ...Id, branch: str(1024) }, responses: { 200: Branch },
})
