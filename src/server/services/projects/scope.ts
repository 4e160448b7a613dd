// A project or a group as the owner of what both levels have under the same rules (labels, milestones, CI/CD
// variables): who may manage them, and whose rows a lookup covers, the owner's own or its ancestor groups' too.
import type { RequestContext } from '../../context.js'
import { requireGroupLevel, requireProjectLevel } from '../../policy.js'
import { ancestorGroupIds } from '../../store/badges.js'
import type { NamespaceRow } from '../../store/namespaces.js'
import type { OwnerScope } from '../../store/owner-scope.js'
import type { ProjectView } from '../../store/projects.js'

/** A project, or a group (a NamespaceRow of kind 'group'). */
export type Owner = ProjectView | NamespaceRow

export const isProject = (owner: Owner): owner is ProjectView => 'ns_kind' in owner

export type { OwnerScope } from '../../store/owner-scope.js'

export const ownScope = (owner: Owner): OwnerScope =>
  (isProject(owner) ? { projectIds: [owner.id], groupIds: [] } : { projectIds: [], groupIds: [owner.id] })

/** The groups above a project, nearest first (none for a project in a user's namespace), or a group and those above it. */
export const groupsAbove = (ctx: RequestContext, owner: Owner): number[] =>
  isProject(owner) ? (owner.ns_kind === 'group' ? ancestorGroupIds(ctx.app.db, owner.namespace_id) : []) : ancestorGroupIds(ctx.app.db, owner.id)

/** The owner's rows and, unless `ancestors` is false, its (or its project's) ancestor groups' (GitLab's available_labels_for). */
export function inheritedScope(ctx: RequestContext, owner: Owner, ancestors = true): OwnerScope {
  if (!ancestors) return ownScope(owner)
  return isProject(owner) ? { projectIds: [owner.id], groupIds: groupsAbove(ctx, owner) } : { projectIds: [], groupIds: groupsAbove(ctx, owner) }
}

export function requireOwnerLevel(ctx: RequestContext, owner: Owner, level: number) {
  if (isProject(owner)) requireProjectLevel(ctx, owner, level)
  else requireGroupLevel(ctx, owner, level)
}
