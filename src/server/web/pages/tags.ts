// Tags of a project at GitLab's web paths (`/<project>/-/tags`, `/-/tags/<tag>`), where a release's tag_path points:
// each tag with its commit, its message and its release.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { findVisibleProject } from '../../services/projects/index.js'
import { getTagView, listTagViews, type TagView } from '../../services/repository/index.js'
import { releasesOfTags } from '../../services/releases/index.js'
import type { ProjectView } from '../../store/projects.js'
import type { ReleaseRow } from '../../store/releases.js'
import type { WebContext } from '../context.js'
import { html, pathPart, type Html } from '../html.js'
import { document, sendHtml } from '../layout.js'
import { pager, projectUrl } from './parts.js'
import { projectHeader } from './project.js'

function tagItem(ctx: WebContext, p: ProjectView, t: TagView, release: ReleaseRow | undefined): Html {
  const url = projectUrl(ctx, p)
  return html`<li><a href="${url}/-/tags/${pathPart(t.tag.name)}"><strong>${t.tag.name}</strong></a>
<a href="${url}/-/commit/${t.commit.id}" class="muted">${t.commit.id.slice(0, 8)}</a> ${t.commit.message.split('\n')[0]}\
${t.tag.message ? html`<div class="muted">${t.tag.message}</div>` : ''}\
${release ? html` · <a href="${url}/-/releases/${encodeURIComponent(release.tag)}">Release ${release.name ?? release.tag}</a>` : ''}</li>`
}

/** `/-/tags[/<tag>]`: `tail` is the tag's name, its `/` kept. */
export async function tagsGet(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, tail: string | undefined) {
  const p = findVisibleProject(ctx, projectPath)
  const releases = releasesOfTags(ctx, p)
  const head = projectHeader(ctx, p, 'code')
  if (!tail) {
    const { views, total } = await listTagViews(ctx, p, {})
    const items = views.map((t) => tagItem(ctx, p, t, releases.get(t.tag.name)))
    const body = html`${head}<h2>Tags</h2>${items.length ? html`<ul class="list" id="tags">${items}</ul>` : html`<p class="muted">No tags.</p>`}\
${pager(ctx, `${projectUrl(ctx, p)}/-/tags`, {}, total)}`
    return sendHtml(req, res, 200, document(ctx, `Tags · ${p.name}`, body))
  }
  const t = await getTagView(ctx, p, tail)
  const body = html`${head}<p><a href="${projectUrl(ctx, p)}/-/tags">Tags</a></p><ul class="list" id="tag">${tagItem(ctx, p, t, releases.get(t.tag.name))}</ul>`
  sendHtml(req, res, 200, document(ctx, `${t.tag.name} · Tags · ${p.name}`, body))
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^tags(?:\/(.*))?$/, page: (ctx, req, res, project, m) => tagsGet(ctx, req, res, project, m[1]) },
]
