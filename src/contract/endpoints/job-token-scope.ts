// The CI/CD job token scope of a project (lib/api/project_job_token_scope.rb, doc/api/project_job_token_scopes.md):
// the "Limit access to this project" setting and its inbound allowlists of projects and groups; Maintainers only.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { ProjectSimple } from '../entities/projects.js'
import { bool, int, ref } from '../params.js'

export const JobTokenScope = z.object({ inbound_enabled: z.boolean(), outbound_enabled: z.boolean() })
export const ProjectScopeLink = z.object({ source_project_id: z.number().int(), target_project_id: z.number().int() })
export const GroupScopeLink = z.object({ source_project_id: z.number().int(), target_group_id: z.number().int() })
/** GitLab's BasicGroupDetails. */
export const AllowedGroup = z.object({ id: z.number().int(), web_url: z.string(), name: z.string() })

const Id = { id: ref() }

export const getJobTokenScope = defineEndpoint({
  method: 'GET', path: '/projects/:id/job_token_scope', summary: "A project's CI/CD job token access settings", params: Id,
  responses: { 200: JobTokenScope },
})

export const updateJobTokenScope = defineEndpoint({
  method: 'PATCH', path: '/projects/:id/job_token_scope', summary: 'Turn "Limit access to this project" on or off', params: Id,
  input: { enabled: bool() }, responses: { 204: null },
})

export const listJobTokenAllowlist = defineEndpoint({
  method: 'GET', path: '/projects/:id/job_token_scope/allowlist', summary: 'Projects whose job tokens may act on this project, itself first',
  paginated: true, params: Id, responses: { 200: z.array(ProjectSimple) },
})

export const addJobTokenAllowlistProject = defineEndpoint({
  method: 'POST', path: '/projects/:id/job_token_scope/allowlist', summary: "Add a project to a project's job token inbound allowlist",
  params: Id, input: { target_project_id: int() }, responses: { 201: ProjectScopeLink },
})

export const removeJobTokenAllowlistProject = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/job_token_scope/allowlist/:target_project_id', summary: "Remove a project from a project's job token inbound allowlist",
  params: { id: ref(), target_project_id: int() }, responses: { 204: null },
})

export const listJobTokenGroupsAllowlist = defineEndpoint({
  method: 'GET', path: '/projects/:id/job_token_scope/groups_allowlist', summary: 'Groups whose projects’ job tokens may act on this project',
  paginated: true, params: Id, responses: { 200: z.array(AllowedGroup) },
})

export const addJobTokenGroupsAllowlistGroup = defineEndpoint({
  method: 'POST', path: '/projects/:id/job_token_scope/groups_allowlist', summary: "Add a group to a project's job token allowlist",
  params: Id, input: { target_group_id: int() }, responses: { 201: GroupScopeLink },
})

export const removeJobTokenGroupsAllowlistGroup = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/job_token_scope/groups_allowlist/:target_group_id', summary: "Remove a group from a project's job token allowlist",
  params: { id: ref(), target_group_id: int() }, responses: { 204: null },
})
