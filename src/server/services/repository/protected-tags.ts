// Protected tags: the rules of GitLab's protected_tags API, and who may create, update or delete a tag under them.
import { CollabError, forbidden } from '../../../core/errors.js'
import type { AppDeps, RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { effectiveProjectLevel, MAINTAINER } from '../../policy.js'
import { transaction } from '../../store/db.js'
import type { ProjectView } from '../../store/projects.js'
import * as store from '../../store/protected-tags.js'
import type { ProtectedTagRow } from '../../store/protected-tags.js'
import { isProtectedTag as tagProtected } from '../../store/protected-refs.js'
import { combinedLevel, levelAllows, matchingRules, mayPushCode, pageOfRules, requireManageRules, ruleNamed, type Allowed, type Caller } from './protected-branches.js'

export type { ProtectedTagRow }

/** GitLab's refusals (lib/gitlab/checks/tag_check.rb): git shows them as `remote: GitLab: …`, the tags API as a 400. */
export const TAG_REFUSALS = {
  update: 'Protected tags cannot be updated.',
  delete: 'You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.',
  deleteFromWeb: 'You can only delete protected tags using the web interface.',
  create: 'You are not allowed to create this tag as it is protected.',
  defaultBranch: 'You cannot use default branch name to create a tag',
  prohibited: 'You cannot create a tag with a prohibited pattern.',
  shaLike: 'You cannot create a tag with a SHA-1 or SHA-256 tag name.',
} as const

export const projectTagRules = (app: AppDeps, p: Pick<ProjectView, 'id'>) => store.listProtectedTags(app.db, p.id)

/** `ProtectedTag.protected?`: for CI, a pipeline on such a tag runs on a protected ref. */
export const isProtectedTag = (app: AppDeps, p: Pick<ProjectView, 'id'>, tag: string) => tagProtected(app.db, p.id, tag)

/** `Gitlab::UserAccess#can_create_tag?`: push_code, and on a protected tag a rule whose create level lets the caller in. */
export function canCreateTag(ctx: Caller, p: ProjectView, tag: string, rules: readonly ProtectedTagRow[] = projectTagRules(ctx.app, p)): boolean {
  if (!mayPushCode(ctx, p)) return false
  const matching = matchingRules(rules, tag)
  return !matching.length || matching.some((r) => levelAllows(ctx, p, r.create_access_level))
}

// Gitlab::Git::Commit::RAW_FULL_SHA_PATTERN at the start: such a tag would shadow the commit of that id.
const STARTS_WITH_SHA = /^[0-9a-f]{40}/

/**
 * `TagCheck#validate!` for one tag change (`before`/`after` null for "did not exist"): the refusal, or null. A push
 * (`web` false) may never delete a protected tag; the API (`web` true) lets a Maintainer who may also create it.
 */
export function tagRefusal(ctx: Caller, p: ProjectView, tag: string, change: { before: string | null; after: string | null }, web: boolean,
  rules: readonly ProtectedTagRow[] = projectTagRules(ctx.app, p)): string | null {
  const { before, after } = change
  if (!before && after && tag === p.default_branch) return TAG_REFUSALS.defaultBranch
  if (after && tag.startsWith('refs/tags/')) return TAG_REFUSALS.prohibited
  if (after && STARTS_WITH_SHA.test(tag)) return TAG_REFUSALS.shaLike
  if (!matchingRules(rules, tag).length) return null
  if (before && after) return TAG_REFUSALS.update
  if (!after && effectiveProjectLevel(ctx, p) < MAINTAINER) return TAG_REFUSALS.delete
  if (!after && !web) return TAG_REFUSALS.deleteFromWeb
  return canCreateTag(ctx, p, tag, rules) ? null : TAG_REFUSALS.create
}

const refused = (message: string) => new CollabError('PROTECTED_TAG', message, { status: 400 })

/** `POST /repository/tags`: GitLab's hooks run for it, and `Tags::CreateService` answers their refusal as a 400. */
export function requireCreateTag(ctx: RequestContext, p: ProjectView, tag: string) {
  const refusal = tagRefusal(ctx, p, tag, { before: null, after: '-' }, true)
  if (refusal) throw refused(refusal)
}

/** `DELETE /repository/tags/:tag_name`: a protected tag needs `delete_protected_tag` (403), then the hooks (400). */
export function requireDeleteTag(ctx: RequestContext, p: ProjectView, tag: string) {
  const rules = projectTagRules(ctx.app, p)
  if (matchingRules(rules, tag).length && effectiveProjectLevel(ctx, p) < MAINTAINER) throw forbidden()
  const refusal = tagRefusal(ctx, p, tag, { before: '-', after: null }, true, rules)
  if (refusal) throw refused(refusal)
}

export const listTagRules = (ctx: RequestContext, p: ProjectView) => pageOfRules(ctx, p, () => projectTagRules(ctx.app, p))

export const getTagRule = (ctx: RequestContext, p: ProjectView, name: string) => ruleNamed(ctx, p, () => store.findProtectedTag(ctx.app.db, p.id, name))

const invalid = (message: string) => new CollabError('VALIDATION_FAILED', message, { status: 422, body: { message: [message] } })

/** `ProtectedTags::CreateService`: the model's validations answer 422 with their full messages, a taken name too. */
export function protectTag(ctx: RequestContext, p: ProjectView, input: { name: string; create_access_level?: number; allowed_to_create?: Allowed }) {
  requireManageRules(ctx, p)
  if (!input.name.trim()) throw invalid("Name can't be blank")
  const db = ctx.app.db
  return transaction(db, () => {
    if (store.findProtectedTag(db, p.id, input.name)) throw invalid('Name has already been taken')
    const at = nowIso(ctx)
    const level = combinedLevel(input.create_access_level, input.allowed_to_create) ?? MAINTAINER
    const id = store.insertProtectedTag(db, { project_id: p.id, name: input.name, create_access_level: level, created_at: at, updated_at: at })
    return { id, project_id: p.id, name: input.name, create_access_level: level, created_at: at, updated_at: at }
  })
}

export function unprotectTag(ctx: RequestContext, p: ProjectView, name: string) {
  store.deleteProtectedTag(ctx.app.db, getTagRule(ctx, p, name).id)
}
