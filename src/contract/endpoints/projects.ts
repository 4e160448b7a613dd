// The Projects API of api-v4.md §Projects.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { UserBasic } from '../entities/users.js'
import { Languages, Project, ProjectSimple } from '../entities/projects.js'
import { bool, hash, int, list, oneOf, ref, str, text } from '../params.js'

const Id = { id: ref() }
const ProjectResponse = z.union([Project, ProjectSimple])

export const ProjectListFilters = {
  archived: bool().optional(),
  visibility: oneOf(['public', 'internal', 'private']).optional(),
  order_by: oneOf(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'star_count']).optional(),
  sort: oneOf(['asc', 'desc']).optional(),
  search: str().optional(),
  search_namespaces: bool().optional(),
  simple: bool().optional(),
  owned: bool().optional(),
  membership: bool().optional(),
  starred: bool().optional(),
  statistics: bool().optional(),
  with_custom_attributes: bool().optional(),
  with_issues_enabled: bool().optional(),
  with_merge_requests_enabled: bool().optional(),
  min_access_level: int().optional(),
  id_after: int().optional(),
  id_before: int().optional(),
  topic: list(str()).optional(),
}

const Settings = {
  description: text().optional(),
  issues_enabled: bool().optional(),
  merge_requests_enabled: bool().optional(),
  jobs_enabled: bool().optional(),
  builds_access_level: oneOf(['disabled', 'private', 'enabled']).optional(),
  wiki_enabled: bool().optional(),
  snippets_enabled: bool().optional(),
  resolve_outdated_diff_discussions: bool().optional(),
  container_registry_enabled: bool().optional(),
  shared_runners_enabled: bool().optional(),
  visibility: oneOf(['private', 'internal', 'public']).optional(),
  import_url: str(2048).optional(),
  public_jobs: bool().optional(),
  only_allow_merge_if_pipeline_succeeds: bool().optional(),
  only_allow_merge_if_all_discussions_are_resolved: bool().optional(),
  merge_method: oneOf(['merge', 'rebase_merge', 'ff']).optional(),
  lfs_enabled: bool().optional(),
  request_access_enabled: bool().optional(),
  tag_list: list(str()).optional(),
  topics: list(str()).optional(),
  printing_merge_request_link_enabled: bool().optional(),
  ci_config_path: str().optional(),
  default_branch: str().optional(),
  initialize_with_readme: bool().optional(),
}

// ProjectsHelpers.update_params_at_least_one_of: GitLab's list, attributes we do not keep included, so the message is its own.
const UPDATE_AT_LEAST_ONE_OF = [
  'allow_merge_on_skipped_pipeline', 'analytics_access_level', 'autoclose_referenced_issues', 'auto_devops_enabled',
  'auto_devops_deploy_strategy', 'auto_cancel_pending_pipelines', 'build_git_strategy', 'build_timeout',
  'builds_access_level', 'ci_config_path', 'ci_default_git_depth', 'ci_allow_fork_pipelines_to_run_in_parent_project',
  'ci_forward_deployment_enabled', 'ci_forward_deployment_rollback_allowed', 'ci_separated_caches',
  'container_registry_access_level', 'container_expiration_policy_attributes', 'default_branch', 'description',
  'emails_disabled', 'emails_enabled', 'forking_access_level', 'issues_access_level', 'lfs_enabled',
  'merge_pipelines_enabled', 'merge_requests_access_level', 'merge_requests_template', 'merge_trains_enabled',
  'merge_method', 'name', 'only_allow_merge_if_all_discussions_are_resolved', 'only_allow_merge_if_pipeline_succeeds',
  'pages_access_level', 'path', 'printing_merge_request_link_enabled', 'public_builds', 'public_jobs',
  'remove_source_branch_after_merge', 'repository_access_level', 'request_access_enabled',
  'resolve_outdated_diff_discussions', 'restrict_user_defined_variables', 'show_diff_preview_in_email',
  'security_and_compliance_access_level', 'squash_option', 'shared_runners_enabled', 'group_runners_enabled',
  'snippets_access_level', 'tag_list', 'topics', 'visibility', 'wiki_access_level', 'avatar',
  'suggestion_commit_message', 'merge_commit_template', 'squash_commit_template', 'issue_branch_template',
  'repository_storage', 'packages_enabled', 'service_desk_enabled', 'keep_latest_artifact', 'mr_default_target_self',
  'enforce_auth_checks_on_uploads', 'releases_access_level', 'environments_access_level', 'feature_flags_access_level',
  'infrastructure_access_level', 'monitor_access_level', 'model_experiments_access_level',
  'model_registry_access_level', 'warn_about_potentially_unwanted_characters',
  'ci_pipeline_variables_minimum_override_role', 'ci_push_repository_for_job_token_allowed',
  'ci_delete_pipelines_in_seconds', 'max_artifacts_size', 'issues_enabled', 'jobs_enabled', 'merge_requests_enabled',
  'wiki_enabled', 'snippets_enabled', 'container_registry_enabled',
] as const

export type ProjectSettingsInput = { [K in keyof typeof Settings]?: z.output<(typeof Settings)[K]> }

// Statistics are read from the repository on disk, which a write to the database need not accompany.
const withoutStatistics = (params: Record<string, unknown>) => params.statistics === undefined

export const listProjects = defineEndpoint({
  method: 'GET', path: '/projects', summary: 'List all visible projects', auth: 'optional', paginated: true, cacheable: withoutStatistics,
  input: {
    ...ProjectListFilters,
    custom_attributes: hash().optional(),
    wiki_checksum_failed: bool().optional(),
    repository_checksum_failed: bool().optional(),
  },
  responses: { 200: z.array(ProjectResponse) },
})

export const listUserProjects = defineEndpoint({
  method: 'GET', path: '/users/:user_id/projects', summary: "List a user's projects", auth: 'optional', paginated: true, cacheable: withoutStatistics,
  params: { user_id: ref() }, input: ProjectListFilters, responses: { 200: z.array(ProjectResponse) },
})

export const listStarredProjects = defineEndpoint({
  method: 'GET', path: '/users/:user_id/starred_projects', summary: 'List projects starred by a user', auth: 'optional', paginated: true, cacheable: withoutStatistics,
  params: { user_id: ref() }, input: ProjectListFilters, responses: { 200: z.array(ProjectResponse) },
})

export const getProject = defineEndpoint({
  method: 'GET', path: '/projects/:id', summary: 'Get a single project', auth: 'optional', cacheable: withoutStatistics,
  params: Id, input: { statistics: bool().optional(), with_custom_attributes: bool().optional(), license: bool().optional() },
  responses: { 200: ProjectResponse },
})

export const createProject = defineEndpoint({
  method: 'POST', path: '/projects', summary: 'Create a project owned by the caller',
  input: { name: str().optional(), path: str().optional(), namespace_id: int().optional(), ...Settings },
  responses: { 201: Project },
})

export const createProjectForUser = defineEndpoint({
  method: 'POST', path: '/projects/user/:user_id', summary: 'Create a project for a user (administrators only)', auth: 'admin',
  params: { user_id: int() }, input: { name: str(), path: str().optional(), namespace_id: int().optional(), ...Settings },
  responses: { 201: Project },
})

export const editProject = defineEndpoint({
  method: 'PUT', path: '/projects/:id', summary: 'Edit a project',
  params: Id, input: { name: str().optional(), path: str().optional(), archived: bool().optional(), ...Settings },
  atLeastOneOf: UPDATE_AT_LEAST_ONE_OF, responses: { 200: Project },
})

export const forkProject = defineEndpoint({
  method: 'POST', path: '/projects/:id/fork', summary: 'Fork a project into a namespace (asynchronous)',
  params: Id,
  input: {
    namespace: z.union([int(), str()]).optional(), namespace_id: int().optional(), namespace_path: str().optional(),
    name: str().optional(), path: str().optional(), description: text().optional(),
    visibility: oneOf(['private', 'internal', 'public']).optional(),
  },
  responses: { 201: Project },
})

export const listForks = defineEndpoint({
  method: 'GET', path: '/projects/:id/forks', summary: 'List forks of a project visible to the caller', auth: 'optional', paginated: true,
  params: Id, input: ProjectListFilters, responses: { 200: z.array(ProjectResponse) },
})

export const listProjectUsers = defineEndpoint({
  method: 'GET', path: '/projects/:id/users', summary: 'List users with access to a project', auth: 'optional', paginated: true,
  params: Id, input: { search: str().optional(), skip_users: list(int()).optional() }, responses: { 200: z.array(UserBasic) },
})

export const starProject = defineEndpoint({
  method: 'POST', path: '/projects/:id/star', summary: 'Star a project (304 when already starred)',
  params: Id, responses: { 201: Project, 304: null },
})

export const unstarProject = defineEndpoint({
  method: 'POST', path: '/projects/:id/unstar', summary: 'Unstar a project (304 when not starred)',
  params: Id, responses: { 201: Project, 304: null },
})

export const listStarrers = defineEndpoint({
  method: 'GET', path: '/projects/:id/starrers', summary: 'List users who starred a project', auth: 'optional', paginated: true,
  params: Id, input: { search: str().optional() },
  responses: { 200: z.array(z.object({ starred_since: z.string(), user: UserBasic })) },
})

export const archiveProject = defineEndpoint({
  method: 'POST', path: '/projects/:id/archive', summary: 'Archive a project (owner or admin; idempotent)',
  params: Id, responses: { 201: Project },
})

export const unarchiveProject = defineEndpoint({
  method: 'POST', path: '/projects/:id/unarchive', summary: 'Unarchive a project (owner or admin; idempotent)',
  params: Id, responses: { 201: Project },
})

export const getProjectLanguages = defineEndpoint({
  method: 'GET', path: '/projects/:id/languages', summary: 'Languages of the default branch by byte share', auth: 'optional',
  params: Id, responses: { 200: Languages },
})

export const deleteProject = defineEndpoint({
  method: 'DELETE', path: '/projects/:id', summary: 'Delete a project (owner or admin)',
  params: Id, responses: { 202: z.object({ message: z.string() }) },
})
