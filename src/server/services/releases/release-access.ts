// Who may read and write a project's releases (GitLab's ReleasePolicy and the releases API's authorize_* helpers).
import { forbidden, unauthorized } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { canReadCode, canReadProject, DEVELOPER, effectiveProjectLevel } from '../../policy.js'
import type { ProjectView } from '../../store/projects.js'
import * as store from '../../store/releases.js'
import { canCreateTag } from '../repository/protected-tags.js'

export const findRelease = (ctx: RequestContext, p: ProjectView, tag: string) => store.findReleaseByTag(ctx.app.db, p.id, tag)

/** read_release: whoever reads the project (guests of a private one too); the releases feature is always on here. */
export function requireReadRelease(ctx: RequestContext, p: ProjectView) {
  if (!canReadProject(ctx, p)) throw forbidden()
}

/** GitLab's `authorize_read_code!` of the single-release reads: a guest of a private project lists releases but opens none. */
export function requireReadReleaseCode(ctx: RequestContext, p: ProjectView) {
  if (!canReadCode(ctx, p)) throw forbidden()
}

/**
 * create_release: Developers and up (a job token only in its own project), not in an archived project. On a protected
 * tag, ReleasePolicy also wants the caller to be allowed to create that tag, for updates and deletes too.
 */
export function mayWriteReleases(ctx: RequestContext, p: ProjectView) {
  if (!ctx.user || p.archived) return false
  if (ctx.job && ctx.job.project_id !== p.id) return false
  return effectiveProjectLevel(ctx, p) >= DEVELOPER
}

export const mayWriteRelease = (ctx: RequestContext, p: ProjectView, tag: string) => mayWriteReleases(ctx, p) && canCreateTag(ctx, p, tag)

export function requireWriteRelease(ctx: RequestContext, p: ProjectView, tag: string) {
  if (!ctx.user) throw unauthorized()
  if (!mayWriteRelease(ctx, p, tag)) throw forbidden()
}

