// Projects in GitLab's simple and full forms; URLs built from the request's base URL.
import type { Project, ProjectSimple } from '../../contract/entities/projects.js'
import type { RequestContext } from '../context.js'
import type { ProjectView } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { namespaceWebUrl } from './groups.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

export interface ProjectBundle {
  row: ProjectView
  owner?: UserRow
  forkedFrom?: ProjectView
  projectAccess: number | null
  groupAccess: number | null
  statistics?: Project['statistics']
  customAttributes?: { key: string; value: string }[]
}

export const projectFullPath = (p: ProjectView) => `${p.ns_full_path}/${p.path}`

export function presentProjectSimple(p: ProjectView, ctx: Urls): ProjectSimple {
  const fullPath = projectFullPath(p)
  const webUrl = `${ctx.baseUrl}/${fullPath}`
  const host = new URL(ctx.baseUrl).hostname
  const tags = JSON.parse(p.tag_list) as string[]
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${p.ns_full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: fullPath,
    created_at: p.created_at,
    default_branch: p.default_branch,
    tag_list: tags,
    topics: tags,
    ssh_url_to_repo: `git@${host}:${fullPath}.git`,
    http_url_to_repo: `${webUrl}.git`,
    web_url: webUrl,
    readme_url: null,
    avatar_url: null,
    forks_count: p.forks_count,
    star_count: p.star_count,
    last_activity_at: p.last_activity_at,
    namespace: {
      id: p.namespace_id,
      name: p.ns_name,
      path: p.ns_path,
      kind: p.ns_kind,
      full_path: p.ns_full_path,
      parent_id: p.ns_parent_id,
      avatar_url: null,
      web_url: namespaceWebUrl({ kind: p.ns_kind, full_path: p.ns_full_path }, ctx),
    },
  }
}

const flag = (v: number) => v === 1
const access = (level: number | null) => (level === null ? null : { access_level: level, notification_level: 3 })

export function presentProject(b: ProjectBundle, ctx: Urls): Project {
  const p = b.row
  const self = `${ctx.apiUrl}/projects/${p.id}`
  const out: Project = {
    ...presentProjectSimple(p, ctx),
    visibility: p.visibility,
    container_registry_enabled: flag(p.container_registry_enabled),
    issues_enabled: flag(p.issues_enabled),
    merge_requests_enabled: flag(p.merge_requests_enabled),
    wiki_enabled: flag(p.wiki_enabled),
    jobs_enabled: flag(p.jobs_enabled),
    snippets_enabled: flag(p.snippets_enabled),
    resolve_outdated_diff_discussions: flag(p.resolve_outdated_diff_discussions),
    shared_runners_enabled: flag(p.shared_runners_enabled),
    lfs_enabled: flag(p.lfs_enabled),
    public_jobs: flag(p.public_jobs),
    archived: flag(p.archived),
    empty_repo: p.empty_repo === 1,
    creator_id: p.creator_id,
    open_issues_count: 0,
    import_url: p.import_url,
    import_status: p.import_status,
    import_error: p.import_error,
    only_allow_merge_if_pipeline_succeeds: flag(p.only_allow_merge_if_pipeline_succeeds),
    only_allow_merge_if_all_discussions_are_resolved: flag(p.only_allow_merge_if_all_discussions_are_resolved),
    request_access_enabled: flag(p.request_access_enabled),
    printing_merge_request_link_enabled: flag(p.printing_merge_request_link_enabled),
    printing_merge_requests_link_enabled: flag(p.printing_merge_request_link_enabled),
    merge_method: p.merge_method,
    ci_config_path: p.ci_config_path,
    shared_with_groups: [],
    permissions: { project_access: access(b.projectAccess), group_access: access(b.groupAccess) },
    _links: {
      self,
      ...(p.issues_enabled ? { issues: `${self}/issues` } : {}),
      ...(p.merge_requests_enabled ? { merge_requests: `${self}/merge_requests` } : {}),
      repo_branches: `${self}/repository/branches`,
      labels: `${self}/labels`,
      events: `${self}/events`,
      members: `${self}/members`,
      cluster_agents: `${self}/cluster_agents`,
    },
  }
  if (b.owner) {
    out.owner = {
      id: b.owner.id, username: b.owner.username, name: b.owner.name, state: b.owner.state,
      avatar_url: null, web_url: `${ctx.baseUrl}/${b.owner.username}`, created_at: b.owner.created_at,
    }
  }
  if (b.statistics) out.statistics = b.statistics
  if (b.customAttributes) out.custom_attributes = b.customAttributes
  if (b.forkedFrom) out.forked_from_project = presentProjectSimple(b.forkedFrom, ctx)
  return out
}
