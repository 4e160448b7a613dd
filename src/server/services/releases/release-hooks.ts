// The Release Hook (GitLab's Gitlab::HookData::ReleaseBuilder): built when a release is created, updated or deleted,
// since a deleted release has no row left to build it from after the write.
import type { RequestContext } from '../../context.js'
import { ciBaseUrl } from '../../ci/lifecycle-events.js'
import { directAssetUrl, isExternalLink, releaseSourceUrl, releaseWebUrl, SOURCE_FORMATS } from '../../../core/release-urls.js'
import type { ReleaseView } from '../../present/releases.js'
import type { ProjectView } from '../../store/projects.js'
import { emitHookEvent } from '../hooks/webhook-events.js'
import { hookProject } from '../hooks/webhook-payloads.js'
import { utc } from '../hooks/webhook-payloads-ci.js'

export type ReleaseAction = 'create' | 'update' | 'delete'

function releasePayload(base: string, hookProjectAttrs: Record<string, unknown>, v: ReleaseView, action: ReleaseAction) {
  const web = `${base}/${v.project.ns_full_path}/${v.project.path}`
  const c = v.commit
  return {
    id: v.row.id, created_at: utc(v.row.created_at), description: v.row.description, name: v.row.name ?? v.row.tag,
    released_at: utc(v.row.released_at), tag: v.row.tag, object_kind: 'release', project: hookProjectAttrs,
    url: releaseWebUrl(web, v.row.tag), action,
    assets: {
      count: v.links.length + SOURCE_FORMATS.length,
      links: v.links.map((l) => ({ id: l.id, external: isExternalLink(web, l.url), link_type: l.link_type, name: l.name, url: l.url })),
      sources: SOURCE_FORMATS.map((format) => ({ format, url: releaseSourceUrl(web, v.project.path, v.row.tag, format) })),
    },
    commit: c ? {
      id: c.id, message: c.message, title: c.message.split('\n')[0], timestamp: c.authoredDate,
      url: `${web}/-/commit/${c.id}`, author: { name: c.authorName, email: c.authorEmail },
    } : null,
  }
}

/** The payload as hooks get it: URLs are the instance's, not the request's. */
export const releaseHookPayload = (ctx: RequestContext, p: ProjectView, v: ReleaseView, action: ReleaseAction) =>
  releasePayload(ciBaseUrl(ctx.app), hookProject(ctx.app, p), v, action)

/** Announces the change to the project's hooks with `releases_events` on. */
export function emitReleaseHook(ctx: RequestContext, p: ProjectView, v: ReleaseView, action: ReleaseAction) {
  const payload = releaseHookPayload(ctx, p, v, action)
  emitHookEvent(ctx.app, { kind: 'release', action, projectId: p.id, userId: ctx.user!.id, payload })
}
