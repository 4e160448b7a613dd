// Groups, namespaces and members as GitLab serializes them.
import type { Group, Member, Namespace } from '../../contract/entities/groups.js'
import type { RequestContext } from '../context.js'
import type { MemberRow } from '../store/members.js'
import type { NamespaceRow } from '../store/namespaces.js'
import type { UserRow } from '../store/users.js'
import { presentUserBasic, userAvatarUrl } from './users.js'

type Urls = Pick<RequestContext, 'baseUrl'>

export const namespaceWebUrl = (ns: Pick<NamespaceRow, 'kind' | 'full_path'>, ctx: Urls) =>
  ns.kind === 'group' ? `${ctx.baseUrl}/groups/${ns.full_path}` : `${ctx.baseUrl}/${ns.full_path}`

/** `owner`: a user namespace's owner, whose avatar it shows; groups have no avatar in collab. */
export const presentNamespace = (ns: NamespaceRow, ctx: Urls, owner?: Pick<UserRow, 'id' | 'avatar_path'>): Namespace => ({
  id: ns.id,
  name: ns.name,
  path: ns.path,
  kind: ns.kind,
  full_path: ns.full_path,
  parent_id: ns.parent_id,
  avatar_url: ns.kind === 'user' && owner ? userAvatarUrl(owner, ctx) : null,
  web_url: namespaceWebUrl(ns, ctx),
})

export const presentGroup = (g: NamespaceRow, ctx: Urls): Group => ({
  id: g.id,
  web_url: namespaceWebUrl(g, ctx),
  name: g.name,
  path: g.path,
  description: g.description,
  visibility: g.visibility,
  share_with_group_lock: false,
  require_two_factor_authentication: false,
  two_factor_grace_period: 48,
  project_creation_level: 'developer',
  subgroup_creation_level: 'maintainer',
  lfs_enabled: g.lfs_enabled === 1,
  default_branch: g.default_branch,
  request_access_enabled: g.request_access_enabled === 1,
  full_name: g.full_name,
  full_path: g.full_path,
  created_at: g.created_at,
  parent_id: g.parent_id,
  avatar_url: null,
})

export const presentMember = (m: MemberRow, ctx: Urls): Member => ({
  ...presentUserBasic(m, ctx),
  access_level: m.access_level,
  created_at: m.member_created_at,
  expires_at: m.member_expires_at,
})
