// Project shapes of api-v4.md §Project: the simple form, the full form, statistics and languages.
import { z } from 'zod'
import { Visibility } from './groups.js'

const nstr = z.string().nullable()
const nint = z.number().int().nullable()

export const ProjectNamespace = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  kind: z.enum(['user', 'group']),
  full_path: z.string(),
  parent_id: nint,
  avatar_url: nstr,
  web_url: z.string(),
})

export const ProjectSimple = z.object({
  id: z.number().int(),
  description: nstr,
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  created_at: z.string(),
  default_branch: nstr,
  tag_list: z.array(z.string()),
  topics: z.array(z.string()),
  ssh_url_to_repo: z.string(),
  http_url_to_repo: z.string(),
  web_url: z.string(),
  readme_url: nstr,
  avatar_url: nstr,
  forks_count: z.number().int(),
  star_count: z.number().int(),
  last_activity_at: z.string(),
  namespace: ProjectNamespace,
})
export type ProjectSimple = z.infer<typeof ProjectSimple>

const AccessInfo = z.object({ access_level: z.number().int(), notification_level: z.number().int() }).nullable()

export const ProjectStatistics = z.object({
  commit_count: z.number().int(),
  storage_size: z.number().int(),
  repository_size: z.number().int(),
  wiki_size: z.number().int(),
  lfs_objects_size: z.number().int(),
  job_artifacts_size: z.number().int(),
  snippets_size: z.number().int(),
  uploads_size: z.number().int(),
})

export const ProjectLinks = z.object({
  self: z.string(),
  issues: z.string().optional(),
  merge_requests: z.string().optional(),
  repo_branches: z.string(),
  labels: z.string(),
  events: z.string(),
  members: z.string(),
  cluster_agents: z.string(),
})

export const Project = ProjectSimple.extend({
  visibility: Visibility,
  owner: z.object({ id: z.number().int(), username: z.string(), name: z.string(), state: z.string(), avatar_url: nstr, web_url: z.string(), created_at: z.string() }).optional(),
  container_registry_enabled: z.boolean(),
  issues_enabled: z.boolean(),
  merge_requests_enabled: z.boolean(),
  wiki_enabled: z.boolean(),
  jobs_enabled: z.boolean(),
  snippets_enabled: z.boolean(),
  resolve_outdated_diff_discussions: z.boolean(),
  shared_runners_enabled: z.boolean(),
  lfs_enabled: z.boolean(),
  public_jobs: z.boolean(),
  archived: z.boolean(),
  empty_repo: z.boolean(),
  creator_id: z.number().int(),
  open_issues_count: z.number().int(),
  /** Only for callers who may administer the project (it can hold credentials). */
  import_url: nstr.optional(),
  import_status: z.enum(['none', 'scheduled', 'started', 'finished', 'failed']),
  import_error: nstr,
  only_allow_merge_if_pipeline_succeeds: z.boolean(),
  only_allow_merge_if_all_discussions_are_resolved: z.boolean(),
  request_access_enabled: z.boolean(),
  printing_merge_request_link_enabled: z.boolean(),
  printing_merge_requests_link_enabled: z.boolean(),
  merge_method: z.enum(['merge', 'rebase_merge', 'ff']),
  ci_config_path: nstr,
  shared_with_groups: z.array(z.object({ group_id: z.number().int(), group_name: z.string(), group_full_path: z.string(), group_access_level: z.number().int() })),
  permissions: z.object({ project_access: AccessInfo, group_access: AccessInfo }),
  statistics: ProjectStatistics.optional(),
  custom_attributes: z.array(z.object({ key: z.string(), value: z.string() })).optional(),
  forked_from_project: ProjectSimple.optional(),
  _links: ProjectLinks,
})
export type Project = z.infer<typeof Project>

export const Languages = z.record(z.string(), z.number())
