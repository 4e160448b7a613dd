// The CI/CD job token scope API (lib/api/project_job_token_scope.rb): Maintainers turn a project's inbound scope on or
// off and name the projects and groups whose job tokens may act on it. The check itself is store/ci-job-token-scope.ts
// jobTokenAllowed, asked wherever a job token names a project.
import { badRequest, forbidden, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canReadGroup, canReadProject, effectiveProjectLevel, MAINTAINER, requireProjectLevel } from '../../policy.js'
import * as store from '../../store/ci-job-token-scope.js'
import { findNamespaceById, type NamespaceRow } from '../../store/namespaces.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { findVisibleProject } from '../projects/projects.js'

// Ci::JobTokenScope's messages, which GitLab answers as 400 (or 403 on removal) bodies.
const INSUFFICIENT = 'Insufficient permissions to modify the job token scope'
const TARGET_PROJECT_UNREADABLE = "The target_project that you are attempting to access does not exist or you don't have permission to perform this action"
const TARGET_GROUP_UNREADABLE = "The target_group that you are attempting to access does not exist or you don't have permission to perform this action"

/** `authorize_admin_project`: 404 to who may not see the project, 403 below Maintainer. */
export function scopeProject(ctx: RequestContext, id: string): ProjectView {
  const project = findVisibleProject(ctx, id)
  requireProjectLevel(ctx, project, MAINTAINER)
  return project
}

/** `outbound_enabled` is GitLab's deprecated outbound scope, always off since 16.0. */
export const scopeOf = (ctx: RequestContext, p: ProjectView) =>
  ({ inbound_enabled: store.inboundScopeEnabled(ctx.app.db, p.id), outbound_enabled: false })

export const setScope = (ctx: RequestContext, p: ProjectView, enabled: boolean) => { store.setInboundScopeEnabled(ctx.app.db, p.id, enabled) }

/** The project itself first (GitLab lists it, as it is always allowed), then those added, oldest first. */
export function allowedProjects(ctx: RequestContext, p: ProjectView): { rows: ProjectView[]; total: number } {
  const { offset, limit } = ctx.page
  const { ids, total } = store.allowedProjectIds(ctx.app.db, p.id, offset === 0 ? limit - 1 : limit, Math.max(0, offset - 1))
  const rows = ids.flatMap((id) => findProjectById(ctx.app.db, id) ?? [])
  return { rows: offset === 0 ? [p, ...rows] : rows, total: total + 1 }
}

export function allowedGroups(ctx: RequestContext, p: ProjectView): { rows: NamespaceRow[]; total: number } {
  const { ids, total } = store.allowedGroupIds(ctx.app.db, p.id, ctx.page.limit, ctx.page.offset)
  return { rows: ids.flatMap((id) => findNamespaceById(ctx.app.db, id) ?? []), total }
}

export function allowProject(ctx: RequestContext, p: ProjectView, targetId: number) {
  const target = findProjectById(ctx.app.db, targetId)
  if (!target) throw notFound('target_project_id not found', 'PROJECT_NOT_FOUND')
  if (!canReadProject(ctx, target)) throw badRequest(TARGET_PROJECT_UNREADABLE)
  // Ci::JobToken::ProjectScopeLink's validation: the project is in its own scope already.
  if (target.id === p.id) throw badRequest("Validation failed: Target project can't be the same as the source project")
  const link = store.insertProjectScopeLink(ctx.app.db, { source_project_id: p.id, target_project_id: target.id, added_by_id: ctx.user!.id, created_at: nowIso(ctx) })
  if (!link) throw badRequest('Target project is already in the job token scope')
  return { source_project_id: p.id, target_project_id: target.id }
}

export function allowGroup(ctx: RequestContext, p: ProjectView, targetId: number) {
  const group = findNamespaceById(ctx.app.db, targetId)
  if (!group || group.kind !== 'group') throw notFound('target_group_id not found', 'GROUP_NOT_FOUND')
  if (!canReadGroup(ctx, group)) throw badRequest(TARGET_GROUP_UNREADABLE)
  const link = store.insertGroupScopeLink(ctx.app.db, { source_project_id: p.id, target_group_id: group.id, added_by_id: ctx.user!.id, created_at: nowIso(ctx) })
  if (!link) throw badRequest('Target group is already in the job token scope')
  return { source_project_id: p.id, target_group_id: group.id }
}

/** The removals check no role up front: their refusal is the service's, a 403 that says why (RemoveProjectService). */
function requireModify(ctx: RequestContext, p: ProjectView) {
  if (effectiveProjectLevel(ctx, p) < MAINTAINER) throw forbidden(INSUFFICIENT)
}

export function disallowProject(ctx: RequestContext, id: string, targetId: number) {
  const p = findVisibleProject(ctx, id)
  // find_project!: the target is looked up as any project of the route is.
  const target = findVisibleProject(ctx, String(targetId))
  requireModify(ctx, p)
  if (target.id === p.id) throw badRequest('Source project cannot be removed from the job token scope')
  if (!store.deleteProjectScopeLink(ctx.app.db, p.id, target.id)) throw badRequest('Target project is not in the job token scope')
}

export function disallowGroup(ctx: RequestContext, id: string, targetId: number) {
  const p = findVisibleProject(ctx, id)
  const group = findNamespaceById(ctx.app.db, targetId)
  if (!group || group.kind !== 'group') throw notFound('target_group_id not found', 'GROUP_NOT_FOUND')
  requireModify(ctx, p)
  if (!store.deleteGroupScopeLink(ctx.app.db, p.id, group.id)) throw badRequest('Target group is not in the job token scope')
}
