// Projects in GitLab's simple and full forms; URLs built from the request's base URL.
import type { Project, ProjectSimple } from '../../contract/entities/projects.js'
import type { RequestContext } from '../context.js'
import { MAINTAINER } from '../../core/access-levels.js'
import { projectFullPath } from '../../core/project-path.js'
import type { ProjectView } from '../store/projects.js'
import { namespaceWebUrl } from './groups.js'
import { userAvatarUrl } from './users.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

export interface ProjectBundle {
  row: ProjectView
  forkedFrom?: ProjectView
  projectAccess: number | null
  groupAccess: number | null
  /** The caller's effective level on the project (an administrator counts as Owner): what decides the admin-only fields. */
  viewerLevel: number
  /** Open issues the caller may see (confidential ones only with Reporter and up). */
  openIssuesCount: number
  statistics?: Project['statistics']
  customAttributes?: { key: string; value: string }[]
}

/** `http://[::1]:3000` -> `::1`; cheaper than new URL() on every project of a list. */
const hostOf = (baseUrl: string) => baseUrl.replace(/^[a-z]+:\/\//i, '').replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1')

interface Derived { fullPath: string; webUrl: string; host: string; tags: string[]; namespace: ProjectSimple['namespace'] }

function derive(p: ProjectView, ctx: Urls): Derived {
  const fullPath = projectFullPath(p)
  return {
    fullPath,
    webUrl: `${ctx.baseUrl}/${fullPath}`,
    host: hostOf(ctx.baseUrl),
    tags: JSON.parse(p.tag_list) as string[],
    namespace: {
      id: p.namespace_id,
      name: p.ns_name,
      path: p.ns_path,
      kind: p.ns_kind,
      full_path: p.ns_full_path,
      parent_id: p.ns_parent_id,
      // A user namespace shows its owner's avatar, as NamespaceBasic does.
      avatar_url: p.ns_kind === 'user' && p.ns_owner_id !== null ? userAvatarUrl({ id: p.ns_owner_id, avatar_path: p.owner_avatar_path }, ctx) : null,
      web_url: namespaceWebUrl({ kind: p.ns_kind, full_path: p.ns_full_path }, ctx),
    },
  }
}

export function presentProjectSimple(p: ProjectView, ctx: Urls): ProjectSimple {
  const d = derive(p, ctx)
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${p.ns_full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: d.fullPath,
    created_at: p.created_at,
    default_branch: p.default_branch,
    tag_list: d.tags,
    topics: d.tags,
    ssh_url_to_repo: `git@${d.host}:${d.fullPath}.git`,
    http_url_to_repo: `${d.webUrl}.git`,
    web_url: d.webUrl,
    readme_url: null,
    avatar_url: null,
    forks_count: p.forks_count,
    star_count: p.star_count,
    last_activity_at: p.last_activity_at,
    namespace: d.namespace,
  }
}

const flag = (v: number) => v === 1
const access = (level: number | null) => (level === null ? null : { access_level: level, notification_level: 3 })

/**
 * The full form is one object literal, simple fields repeated rather than spread in: on Node 20, spreading an object
 * and then adding dozens of properties costs ~100 µs per project, which dominated GET /projects/:id.
 * Absent optional fields are `undefined`, which JSON leaves out.
 */
export function presentProject(b: ProjectBundle, ctx: Urls): Project {
  const p = b.row
  const d = derive(p, ctx)
  const self = `${ctx.apiUrl}/projects/${p.id}`
  const hasOwner = p.ns_kind === 'user' && p.ns_owner_id !== null && p.owner_username !== null
  return {
    id: p.id,
    description: p.description,
    name: p.name,
    name_with_namespace: `${p.ns_full_name} / ${p.name}`,
    path: p.path,
    path_with_namespace: d.fullPath,
    created_at: p.created_at,
    default_branch: p.default_branch,
    tag_list: d.tags,
    topics: d.tags,
    ssh_url_to_repo: `git@${d.host}:${d.fullPath}.git`,
    http_url_to_repo: `${d.webUrl}.git`,
    web_url: d.webUrl,
    readme_url: null,
    avatar_url: null,
    forks_count: p.forks_count,
    star_count: p.star_count,
    last_activity_at: p.last_activity_at,
    namespace: d.namespace,
    visibility: p.visibility,
    owner: hasOwner
      ? { id: p.ns_owner_id!, username: p.owner_username!, name: p.owner_name!, state: p.owner_state!, avatar_url: userAvatarUrl({ id: p.ns_owner_id!, avatar_path: p.owner_avatar_path }, ctx), web_url: `${ctx.baseUrl}/${p.owner_username}`, created_at: p.owner_created_at! }
      : undefined,
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
    open_issues_count: b.openIssuesCount,
    // May hold credentials: GitLab exposes it only to those who may administer the project (Maintainer and up).
    import_url: b.viewerLevel >= MAINTAINER ? p.import_url : undefined,
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
    statistics: b.statistics,
    custom_attributes: b.customAttributes,
    forked_from_project: b.forkedFrom ? presentProjectSimple(b.forkedFrom, ctx) : undefined,
    _links: {
      self,
      issues: p.issues_enabled ? `${self}/issues` : undefined,
      merge_requests: p.merge_requests_enabled ? `${self}/merge_requests` : undefined,
      repo_branches: `${self}/repository/branches`,
      labels: `${self}/labels`,
      events: `${self}/events`,
      members: `${self}/members`,
      cluster_agents: `${self}/cluster_agents`,
    },
  }
}
