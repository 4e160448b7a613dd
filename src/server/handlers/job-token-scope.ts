// The CI/CD job token scope API: /projects/:id/job_token_scope, its allowlist and groups_allowlist.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { namespaceWebUrl } from '../present/groups.js'
import { presentProjectSimple } from '../present/projects.js'
import * as scope from '../services/ci/index.js'

export const jobTokenScopeHandlers = {
  getJobTokenScope: (input, ctx) => ({ status: 200, body: scope.scopeOf(ctx, scope.scopeProject(ctx, input.id)) }),
  updateJobTokenScope: (input, ctx) => {
    scope.setScope(ctx, scope.scopeProject(ctx, input.id), input.enabled)
    return { status: 204 }
  },
  listJobTokenAllowlist: (input, ctx) => {
    const { rows, total } = scope.allowedProjects(ctx, scope.scopeProject(ctx, input.id))
    return { status: 200, body: rows.map((p) => presentProjectSimple(p, ctx)), total }
  },
  addJobTokenAllowlistProject: (input, ctx) =>
    ({ status: 201, body: scope.allowProject(ctx, scope.scopeProject(ctx, input.id), input.target_project_id) }),
  removeJobTokenAllowlistProject: (input, ctx) => {
    scope.disallowProject(ctx, input.id, input.target_project_id)
    return { status: 204 }
  },
  listJobTokenGroupsAllowlist: (input, ctx) => {
    const { rows, total } = scope.allowedGroups(ctx, scope.scopeProject(ctx, input.id))
    return { status: 200, body: rows.map((g) => ({ id: g.id, web_url: namespaceWebUrl(g, ctx), name: g.name })), total }
  },
  addJobTokenGroupsAllowlistGroup: (input, ctx) =>
    ({ status: 201, body: scope.allowGroup(ctx, scope.scopeProject(ctx, input.id), input.target_group_id) }),
  removeJobTokenGroupsAllowlistGroup: (input, ctx) => {
    scope.disallowGroup(ctx, input.id, input.target_group_id)
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.jobTokenScope>
