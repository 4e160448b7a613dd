// Protected branches: the rules of GitLab's protected_branches API, and who may push, force push, merge or delete under them.
import { CollabError, conflict, forbidden, unauthorized } from '../../../core/errors.js'
import { matchingRules } from '../../../core/ref-pattern.js'
import type { AppDeps, RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import type { PushCheck } from '../../git/pre-receive.js'
import type { PushCommand } from '../../git/push-commands.js'
import { DEVELOPER, effectiveProjectLevel, isAdmin, MAINTAINER, requireProjectLevel } from '../../policy.js'
import { transaction } from '../../store/db.js'
import type { ProjectView } from '../../store/projects.js'
import * as store from '../../store/protected-branches.js'
import type { ProtectedBranchRow } from '../../store/protected-branches.js'
import { isProtectedBranch as branchProtected } from '../../store/protected-refs.js'
import { currentSettings } from '../instance/application-settings.js'

export type { ProtectedBranchRow }
export { matchingRules } from '../../../core/ref-pattern.js'

export type Caller = Pick<RequestContext, 'user' | 'app'>

/** GitLab's refusals (lib/gitlab/checks/branch_check.rb): git shows them as `remote: GitLab: …`. */
export const PUSH_REFUSALS = {
  push: 'You are not allowed to push code to protected branches on this project.',
  forcePush: 'You are not allowed to force push code to a protected branch on this project.',
  deleteFromWeb: 'You can only delete protected branches using the web interface.',
  deleteNotMaintainer: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
  deleteDefault: 'The default branch of a project cannot be deleted.',
} as const

const NO_ACCESS = 0

export const projectRules = (app: AppDeps, p: Pick<ProjectView, 'id'>) => store.listProtectedBranches(app.db, p.id)

/** `ProtectedRefAccess#check_access`: no one at 0; administrators at any other level; else a member at or above it. */
export function levelAllows(ctx: Caller, p: ProjectView, level: number): boolean {
  if (!ctx.user || level === NO_ACCESS) return false
  if (isAdmin(ctx)) return true
  return effectiveProjectLevel(ctx, p) >= level
}

export const mayPushCode = (ctx: Caller, p: ProjectView) => ctx.user !== null && effectiveProjectLevel(ctx, p) >= DEVELOPER

/** `Gitlab::UserAccess#can_push_to_branch?`: push_code, and on a protected branch a rule whose push level lets the caller in. */
export function canPushTo(ctx: Caller, p: ProjectView, branch: string, rules: readonly ProtectedBranchRow[] = projectRules(ctx.app, p)): boolean {
  if (!mayPushCode(ctx, p)) return false
  const matching = matchingRules(rules, branch)
  return !matching.length || matching.some((r) => levelAllows(ctx, p, r.push_access_level))
}

/**
 * For the merge-requests service: may the caller merge into `branch`? GitLab's `MergeRequest#can_be_merged_by?`, i.e.
 * `can_update_branch?`: whoever may push to it, or whom a matching rule's merge level lets in (a protected branch
 * whose merge level is Developers lets Developers merge though they may not push). Admins pass every level but 0.
 */
export function canMergeInto(ctx: Caller, p: ProjectView, branch: string): boolean {
  const rules = projectRules(ctx.app, p)
  if (canPushTo(ctx, p, branch, rules) && !p.archived) return true
  return matchingRules(rules, branch).some((r) => levelAllows(ctx, p, r.merge_access_level))
}

/** A protected branch is never removed after a merge (`MergeRequest#can_remove_source_branch?`). */
export const isProtectedBranch = (app: AppDeps, p: Pick<ProjectView, 'id'>, branch: string) => branchProtected(app.db, p.id, branch)

/** The merge API's refusal when canMergeInto says no: GitLab answers 401 (compat-mr-ci-wiki §1.4). */
export function requireMergeInto(ctx: Caller, p: ProjectView, branch: string) {
  if (!canMergeInto(ctx, p, branch)) throw unauthorized()
}

/** API writes to a branch (commits, files, cherry-picks): `Commits::CreateService#validate_permissions!`. */
export function requirePushTo(ctx: Caller, p: ProjectView, branch: string, opts: { force?: boolean } = {}) {
  const rules = projectRules(ctx.app, p)
  if (!canPushTo(ctx, p, branch, rules)) throw forbidden('You are not allowed to push into this branch')
  const matching = matchingRules(rules, branch)
  if (opts.force && matching.length && !matching.some((r) => r.allow_force_push)) {
    throw forbidden('You are not allowed to force push code to a protected branch on this project.')
  }
}

/**
 * Creating a branch through the API goes through the same checks as a push (GitLab runs its hooks for it): a protected
 * name needs push access, and the refusal is the hook's message as a 400 (`Branches::CreateService`).
 */
export function requireCreateBranch(ctx: Caller, p: ProjectView, branch: string) {
  if (!canPushTo(ctx, p, branch)) throw new CollabError('PROTECTED_BRANCH', PUSH_REFUSALS.push, { status: 400 })
}

/** Deleting a branch through the API: a protected one only by Maintainers (GitLab's web rule), never by Developers. */
export function requireDeleteBranch(ctx: Caller, p: ProjectView, branch: string) {
  if (matchingRules(projectRules(ctx.app, p), branch).length && effectiveProjectLevel(ctx, p) < MAINTAINER) {
    throw new CollabError('PROTECTED_BRANCH', 'Protected branch cant be removed', { status: 403 })
  }
}

export interface BranchProtection { protected: boolean; developersCanPush: boolean; developersCanMerge: boolean; canPush: boolean }

/** The protection fields of a branch record (`entities/branch.rb`), from rules read once per request. */
export function branchProtection(ctx: Caller, p: ProjectView, rules: readonly ProtectedBranchRow[], branch: string): BranchProtection {
  const matching = matchingRules(rules, branch)
  return {
    protected: matching.length > 0,
    developersCanPush: matching.some((r) => r.push_access_level === DEVELOPER),
    developersCanMerge: matching.some((r) => r.merge_access_level === DEVELOPER),
    canPush: canPushTo(ctx, p, branch, rules),
  }
}

/**
 * GitLab's checks of one pushed branch, in its order (`branch_check.rb`): the default branch is never deleted; on a
 * protected branch a non-fast-forward update needs allow_force_push, a deletion is refused (by the web interface only),
 * and an update needs push access. A `deny` ends the list: the hook stops at the first check that fails.
 */
export function branchPushChecks(ctx: Caller, p: ProjectView, rules: readonly ProtectedBranchRow[], { before, after }: PushCommand, branch: string): PushCheck[] {
  const deny = (message: string): PushCheck => ({ kind: 'deny', before: '-', after: '-', message })
  if (!after && branch === p.default_branch) return [deny(PUSH_REFUSALS.deleteDefault)]
  const matching = matchingRules(rules, branch)
  if (!matching.length) return []
  const checks: PushCheck[] = []
  if (before && after && !matching.some((r) => r.allow_force_push)) checks.push({ kind: 'force', before, after, message: PUSH_REFUSALS.forcePush })
  if (!after) checks.push(deny(effectiveProjectLevel(ctx, p) >= MAINTAINER ? PUSH_REFUSALS.deleteFromWeb : PUSH_REFUSALS.deleteNotMaintainer))
  else if (!canPushTo(ctx, p, branch, rules)) checks.push(deny(PUSH_REFUSALS.push))
  return checks
}

/** `default_branch_protection` -> the push and merge levels of the default branch's rule (lib/gitlab/access.rb). */
const DEFAULT_PROTECTION: Record<number, { push: number; merge: number } | undefined> = {
  1: { push: DEVELOPER, merge: MAINTAINER },
  2: { push: MAINTAINER, merge: MAINTAINER },
  3: { push: MAINTAINER, merge: DEVELOPER },
  4: { push: MAINTAINER, merge: MAINTAINER },
}

/** `Projects::ProtectDefaultBranchService`: once the default branch first exists, protect it unless a rule already covers it. */
export function protectDefaultBranch(app: AppDeps, p: Pick<ProjectView, 'id'>, branch: string) {
  const levels = DEFAULT_PROTECTION[currentSettings(app).default_branch_protection]
  if (!levels || matchingRules(projectRules(app, p), branch).length) return
  const at = app.clock.now().toISOString()
  store.insertProtectedBranch(app.db, {
    project_id: p.id, name: branch, push_access_level: levels.push, merge_access_level: levels.merge, unprotect_access_level: null,
    allow_force_push: 0, code_owner_approval_required: 0, created_at: at, updated_at: at,
  })
}

const ruleNotFound = () => new CollabError('PROTECTED_BRANCH_NOT_FOUND', '404 Not found', { status: 404 })

/** Every route of the API, reads included, needs Maintainer (`authorize_admin_project`). */
export const requireManageRules = (ctx: RequestContext, p: ProjectView) => requireProjectLevel(ctx, p, MAINTAINER)

/** A page of a project's rules, branch or tag ones, for a Maintainer. */
export function pageOfRules<R>(ctx: RequestContext, p: ProjectView, rules: () => R[]) {
  requireManageRules(ctx, p)
  const all = rules()
  return { rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), total: all.length }
}

/** One rule by its exact name (a wildcard's too), for a Maintainer; GitLab's `find_by!` answers 404 without it. */
export function ruleNamed<R>(ctx: RequestContext, p: ProjectView, find: () => R | undefined): R {
  requireManageRules(ctx, p)
  const row = find()
  if (!row) throw ruleNotFound()
  return row
}

export const listRules = (ctx: RequestContext, p: ProjectView, search?: string) =>
  pageOfRules(ctx, p, () => projectRules(ctx.app, p).filter((r) => !search || r.name.includes(search)))

export const getRule = (ctx: RequestContext, p: ProjectView, name: string) => ruleNamed(ctx, p, () => store.findProtectedBranch(ctx.app.db, p.id, name))

export type Allowed = { access_level?: number }[]

export interface ProtectInput {
  name: string
  push_access_level?: number
  merge_access_level?: number
  unprotect_access_level?: number
  allowed_to_push?: Allowed
  allowed_to_merge?: Allowed
  allowed_to_unprotect?: Allowed
  allow_force_push?: boolean
  code_owner_approval_required?: boolean
}

/**
 * One level from `x_access_level` and `allowed_to_x` together. GitLab keeps a row for each and lets in whoever any row
 * lets in, so the widest role level is the one that counts; 0 (No one) only when nothing else is given.
 */
export function combinedLevel(level: number | undefined, allowed: Allowed | undefined): number | undefined {
  const levels = [level, ...(allowed ?? []).map((a) => a.access_level)].filter((l): l is number => l !== undefined)
  if (!levels.length) return undefined
  const granting = levels.filter((l) => l !== NO_ACCESS)
  return granting.length ? Math.min(...granting) : NO_ACCESS
}

const levelsOf = (input: Omit<ProtectInput, 'name'>) => ({
  push: combinedLevel(input.push_access_level, input.allowed_to_push),
  merge: combinedLevel(input.merge_access_level, input.allowed_to_merge),
  unprotect: combinedLevel(input.unprotect_access_level, input.allowed_to_unprotect),
})

export function protect(ctx: RequestContext, p: ProjectView, input: ProtectInput) {
  requireManageRules(ctx, p)
  if (!input.name.trim()) throw new CollabError('VALIDATION_FAILED', "Name can't be blank", { status: 422, body: { message: ["Name can't be blank"] } })
  const db = ctx.app.db
  return transaction(db, () => {
    if (store.findProtectedBranch(db, p.id, input.name)) throw conflict(`Protected branch '${input.name}' already exists`)
    const at = nowIso(ctx)
    const levels = levelsOf(input)
    store.insertProtectedBranch(db, {
      project_id: p.id, name: input.name, push_access_level: levels.push ?? MAINTAINER,
      merge_access_level: levels.merge ?? MAINTAINER, unprotect_access_level: levels.unprotect ?? null,
      allow_force_push: input.allow_force_push ? 1 : 0, code_owner_approval_required: input.code_owner_approval_required ? 1 : 0,
      created_at: at, updated_at: at,
    })
    return store.findProtectedBranch(db, p.id, input.name)!
  })
}

export function updateRule(ctx: RequestContext, p: ProjectView, name: string, input: Omit<ProtectInput, 'name'>) {
  const row = getRule(ctx, p, name)
  const patch: store.ProtectedBranchPatch = {}
  const levels = levelsOf(input)
  if (levels.push !== undefined) patch.push_access_level = levels.push
  if (levels.merge !== undefined) patch.merge_access_level = levels.merge
  if (levels.unprotect !== undefined) patch.unprotect_access_level = levels.unprotect
  if (input.allow_force_push !== undefined) patch.allow_force_push = input.allow_force_push ? 1 : 0
  if (input.code_owner_approval_required !== undefined) patch.code_owner_approval_required = input.code_owner_approval_required ? 1 : 0
  if (Object.keys(patch).length) store.updateProtectedBranch(ctx.app.db, row.id, { ...patch, updated_at: nowIso(ctx) })
  return store.findProtectedBranch(ctx.app.db, p.id, name)!
}

/** EE's `unprotect_access_levels`: a rule that names one may be removed only by whom that level lets in. */
function removeRule(ctx: RequestContext, p: ProjectView, row: ProtectedBranchRow) {
  if (row.unprotect_access_level !== null && !levelAllows(ctx, p, row.unprotect_access_level)) throw forbidden()
  store.deleteProtectedBranch(ctx.app.db, row.id)
}

export function unprotect(ctx: RequestContext, p: ProjectView, name: string) {
  removeRule(ctx, p, getRule(ctx, p, name))
}

/**
 * The legacy `PUT /repository/branches/:branch/protect` (python-gitlab 2's `branch.protect()`): creates or updates the
 * branch's exact rule; `developers_can_push/merge` pick 30 or 40, and an omitted one leaves an existing level alone.
 */
export function protectLegacy(ctx: RequestContext, p: ProjectView, branch: string, input: { developers_can_push?: boolean; developers_can_merge?: boolean }) {
  requireManageRules(ctx, p)
  const level = (developers: boolean | undefined) => (developers === undefined ? undefined : developers ? DEVELOPER : MAINTAINER)
  const levels = { push_access_level: level(input.developers_can_push), merge_access_level: level(input.developers_can_merge) }
  if (store.findProtectedBranch(ctx.app.db, p.id, branch)) updateRule(ctx, p, branch, levels)
  else protect(ctx, p, { name: branch, ...levels })
}

export function unprotectLegacy(ctx: RequestContext, p: ProjectView, branch: string) {
  requireManageRules(ctx, p)
  const row = store.findProtectedBranch(ctx.app.db, p.id, branch)
  if (row) removeRule(ctx, p, row)
}
