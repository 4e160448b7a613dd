// The one place that answers "may this caller do this": admin, access levels 10–50 and visibility.
import { forbidden } from '../core/errors.js'
import type { RequestContext } from './context.js'
import type { UserRow } from './store/users.js'
import { groupAccessLevel, type NamespaceRow } from './store/namespaces.js'
import { directProjectLevel, memberOfProjectBelow, projectAccessLevel, type ProjectView } from './store/projects.js'

import { DEVELOPER, GUEST, MAINTAINER, OWNER, REPORTER } from '../core/access-levels.js'

export { GUEST, REPORTER, DEVELOPER, MAINTAINER, OWNER } from '../core/access-levels.js'

type Caller = Pick<RequestContext, 'user' | 'app'>

const levels = new WeakMap<object, Map<string, number>>()

function memo(ctx: Caller, key: string, compute: () => number): number {
  let map = levels.get(ctx)
  if (!map) levels.set(ctx, (map = new Map()))
  let v = map.get(key)
  if (v === undefined) map.set(key, (v = compute()))
  return v
}

export const isAdmin = (ctx: Caller) => ctx.user?.is_admin === 1

/** The caller's membership level on a project (0 for none); admins are not members by being admins. */
export function projectLevel(ctx: Caller, project: ProjectView): number {
  const user = ctx.user
  if (!user) return 0
  // Personal namespaces have no group ancestry: the direct membership is the whole answer.
  return memo(ctx, `p${project.id}`, () => project.ns_kind === 'user'
    ? directProjectLevel(ctx.app.db, user.id, project.id) ?? 0
    : projectAccessLevel(ctx.app.db, user.id, project.id, project.namespace_id))
}

export function groupLevel(ctx: Caller, group: Pick<NamespaceRow, 'id'>): number {
  const user = ctx.user
  if (!user) return 0
  return memo(ctx, `g${group.id}`, () => groupAccessLevel(ctx.app.db, user.id, group.id))
}

/** Level used for permission checks: administrators may do anything an owner may. */
export const effectiveProjectLevel = (ctx: Caller, project: ProjectView) => (isAdmin(ctx) ? OWNER : projectLevel(ctx, project))
export const effectiveGroupLevel = (ctx: Caller, group: Pick<NamespaceRow, 'id'>) => (isAdmin(ctx) ? OWNER : groupLevel(ctx, group))

/**
 * External users (GitLab's `external`) see internal projects, groups and snippets only where they are members, and
 * create no personal projects nor groups.
 */
export const isExternalUser = (u: Pick<UserRow, 'external' | 'is_admin'>) => u.external === 1 && u.is_admin !== 1
export const isExternal = (ctx: Caller) => ctx.user !== null && isExternalUser(ctx.user)

const PUBLIC_ONLY = ['public'] as const
const PUBLIC_AND_INTERNAL = ['public', 'internal'] as const

/**
 * The visibility levels the caller reads without membership: public for everyone, internal too for signed-in users who
 * are not external. The store's visibility SQL is built from this list, so lists and single reads agree.
 */
export const openVisibilities = (ctx: Caller): readonly ('public' | 'internal')[] => (!ctx.user || isExternal(ctx) ? PUBLIC_ONLY : PUBLIC_AND_INTERNAL)

export const isOpenTo = (ctx: Caller, visibility: string) => (openVisibilities(ctx) as readonly string[]).includes(visibility)

export const canReadProject = (ctx: Caller, project: ProjectView) =>
  isOpenTo(ctx, project.visibility) || isAdmin(ctx) || projectLevel(ctx, project) >= GUEST

/** A member of a project in the group (or below it) reads the group, as GitLab's GroupPolicy `has_projects` allows. */
export const canReadGroup = (ctx: Caller, group: NamespaceRow) =>
  isOpenTo(ctx, group.visibility) || isAdmin(ctx) || groupLevel(ctx, group) >= GUEST ||
  (ctx.user !== null && memo(ctx, `b${group.id}`, () => Number(memberOfProjectBelow(ctx.app.db, ctx.user!.id, group.id))) === 1)

/**
 * Code and merge requests (clone, fork, merge request lists, search and links): anyone who reads the project without
 * membership; where membership is what lets the caller in (private, or internal to an external user), Reporter and up.
 */
export const canReadCode = (ctx: Caller, project: ProjectView) =>
  isOpenTo(ctx, project.visibility) || isAdmin(ctx) || projectLevel(ctx, project) >= REPORTER

/**
 * GitLab's public_builds: pipelines, jobs, their logs and artifacts, and commit statuses are for Reporters and up; with
 * the project's `public_jobs` on (the default), for everyone who may read the project (guests of a private one too).
 * With CI off, for nobody (GitLab's builds_disabled prevents them for administrators too).
 */
export function canReadBuilds(ctx: Caller, project: ProjectView) {
  if (!project.jobs_enabled) return false
  if (isAdmin(ctx)) return true
  return canReadProject(ctx, project) && (project.public_jobs === 1 || projectLevel(ctx, project) >= REPORTER)
}

export function requireProjectLevel(ctx: Caller, project: ProjectView, min: number) {
  if (effectiveProjectLevel(ctx, project) < min) throw forbidden()
}

export function requireGroupLevel(ctx: Caller, group: Pick<NamespaceRow, 'id'>, min: number) {
  if (effectiveGroupLevel(ctx, group) < min) throw forbidden()
}

/** Projects may be created in one's own namespace, or in a group where one is at least Developer (GitLab's default). */
export function canCreateProjectIn(ctx: Caller, ns: NamespaceRow) {
  if (!ctx.user) return false
  if (isAdmin(ctx)) return true
  // External users create no personal projects (GitLab sets their projects_limit to 0).
  if (ns.kind === 'user') return ns.owner_id === ctx.user.id && !isExternal(ctx)
  return groupLevel(ctx, ns) >= DEVELOPER
}

/** The user whose personal namespace holds a project keeps Owner on it: nobody may change or remove that membership. */
export const isPersonalNamespaceHolder = (project: ProjectView, userId: number) => project.ns_kind === 'user' && project.ns_owner_id === userId

/** Members may be managed by maintainers; only owners may grant or touch the owner level. */
export function requireCanManageMember(ctx: Caller, callerLevel: number, targetLevels: number[]) {
  if (callerLevel < MAINTAINER) throw forbidden()
  if (callerLevel < OWNER && targetLevels.some((l) => l >= OWNER)) throw forbidden()
}

/** Confidential issues: Reporter and up, their author and their assignees (compat-notes §2.1). */
export function canReadIssue(ctx: Caller, project: ProjectView, issue: { confidential: number; author_id: number }, assigneeIds: number[]) {
  if (!issue.confidential) return true
  const user = ctx.user
  if (!user) return false
  return isAdmin(ctx) || projectLevel(ctx, project) >= REPORTER || issue.author_id === user.id || assigneeIds.includes(user.id)
}

/** Labels, milestones, assignees, locks and time tracking of issues: Reporter and up. */
export const canAdminIssues = (ctx: Caller, project: ProjectView) => effectiveProjectLevel(ctx, project) >= REPORTER

/** Setting `iid`, `created_at` and `updated_at` of issues and notes: administrators and owners. */
export const canSetIssueHistory = (ctx: Caller, project: ProjectView) => effectiveProjectLevel(ctx, project) >= OWNER
