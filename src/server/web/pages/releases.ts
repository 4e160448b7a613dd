// Releases of a project at GitLab's web paths: the list (`/<project>/-/releases`), one release with its rendered notes,
// milestones and assets (`/-/releases/<tag>`), the permalinks to the latest one and the direct asset downloads, which
// redirect (302) where the API's direct_asset_url and _links.self point. Sources link to `/-/archive/<tag>/<file>`.
import { underProject, type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import { unauthorized } from '../../../core/errors.js'
import type { RouteRequest } from '../../http/router.js'
import { directAssetUrl, releaseSourceUrl, releaseWebUrl, SOURCE_FORMATS } from '../../../core/release-urls.js'
import type { ReleaseView } from '../../present/releases.js'
import { findVisibleProject } from '../../services/projects/index.js'
import { linkAtFilepath } from '../../services/releases/index.js'
import { getRelease, latestRelease, listReleases, releaseForDownload, updateRelease } from '../../services/releases/index.js'
import { repositoryArchive } from '../../services/repository/index.js'
import type { ProjectView } from '../../store/projects.js'
import { afterCommit } from '../../http/mount.js'
import { readForm, type WebContext } from '../context.js'
import { ago } from '../dates.js'
import { html, pathPart, trusted, type Html } from '../html.js'
import { csrfField, document, redirect, sendHtml } from '../layout.js'
import { pager, projectUrl, refuseForm } from './parts.js'
import { projectHeader } from './project.js'

const releasesUrl = (ctx: WebContext, p: ProjectView) => `${projectUrl(ctx, p)}/-/releases`
const releaseUrl = (ctx: WebContext, p: ProjectView, tag: string) => releaseWebUrl(projectUrl(ctx, p), tag)

function summary(ctx: WebContext, v: ReleaseView): Html {
  const upcoming = v.row.released_at > v.now
  return html`<span class="muted">${upcoming ? 'Upcoming release' : 'Released'} ${ago(ctx, v.row.released_at)}${v.author ? html` by <a href="${ctx.baseUrl}/${pathPart(v.author.username)}">${v.author.name}</a>` : ''}\
${v.canReadCode ? html` · tag <a href="${projectUrl(ctx, v.project)}/-/tree/${pathPart(v.row.tag)}">${v.row.tag}</a>` : ''}</span>`
}

function assets(ctx: WebContext, v: ReleaseView): Html {
  const sources = v.canReadCode
    ? SOURCE_FORMATS.map((format) => html`<li><a href="${releaseSourceUrl(projectUrl(ctx, v.project), v.project.path, v.row.tag, format)}">Source code (${format})</a></li>`) : []
  const links = v.links.map((l) => {
    const href = directAssetUrl(projectUrl(ctx, v.project), v.row.tag, l)
    return html`<li><a href="${href}" rel="nofollow noreferrer">${l.name}</a> <span class="muted">${l.link_type}</span></li>`
  })
  return html`<h3>Assets (${sources.length + links.length})</h3><ul class="list" id="release-assets">${links}${sources}</ul>`
}

async function listBody(ctx: WebContext, p: ProjectView): Promise<Html> {
  const { views, total } = await listReleases(ctx, p, {})
  const items = views.map((v) => html`<li><a href="${releaseUrl(ctx, p, v.row.tag)}"><strong>${v.canReadCode ? v.row.name ?? v.row.tag : `Release-${v.row.id}`}</strong></a>
${summary(ctx, v)}</li>`)
  return html`${projectHeader(ctx, p, 'releases')}<h2>Releases</h2>
${items.length ? html`<ul class="list" id="releases">${items}</ul>` : html`<p class="muted">No releases.</p>`}${pager(ctx, releasesUrl(ctx, p), {}, total)}`
}

async function releaseBody(ctx: WebContext, p: ProjectView, v: ReleaseView): Promise<Html> {
  const notes = v.row.description ? html`<div class="markdown" id="release-notes">${trusted(v.descriptionHtml ?? '')}</div>` : ''
  const milestones = v.milestones.length
    ? html`<p>Milestones: ${v.milestones.map(({ milestone: m }, i) => html`${i ? ', ' : ''}<a href="${projectUrl(ctx, p)}/-/milestones/${m.iid}">${m.title}</a>`)}</p>` : ''
  const edit = v.canUpdate ? html` <a href="${releaseUrl(ctx, p, v.row.tag)}/edit" id="edit-release">Edit release</a>` : ''
  return html`${projectHeader(ctx, p, 'releases')}<p><a href="${releasesUrl(ctx, p)}">Releases</a>${edit}</p>
<h2 id="release-name">${v.row.name ?? v.row.tag}</h2><p>${summary(ctx, v)}</p>${milestones}${notes}${assets(ctx, v)}`
}

/** `…/releases/<tag>/edit` (the API's `_links.edit_url`): name, date and notes, for those who may update the release. */
function editBody(ctx: WebContext, p: ProjectView, v: ReleaseView): Html {
  const url = `${releaseUrl(ctx, p, v.row.tag)}/edit`
  return html`${projectHeader(ctx, p, 'releases')}<p><a href="${releaseUrl(ctx, p, v.row.tag)}">${v.row.name ?? v.row.tag}</a></p>
<h2>Edit release ${v.row.tag}</h2><form method="post" action="${url}" id="release-form">${csrfField(ctx)}
<p><label>Release title <input name="name" value="${v.row.name ?? ''}" id="release-title"></label></p>
<p><label>Release date <input name="released_at" value="${v.row.released_at}" id="release-date"></label></p>
<p><label>Release notes<br><textarea name="description" rows="12" id="release-notes-field">${v.row.description ?? ''}</textarea></label></p>
<button type="submit" id="save-release">Save changes</button></form>`
}

async function editPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView, tag: string) {
  // As GitLab's authenticate_user!: an anonymous visitor is sent to sign in.
  if (!ctx.user) throw unauthorized()
  const v = await getRelease(ctx, p, tag)
  // A release the viewer may not change has no edit page, as a private project has no pages to strangers.
  if (!v.canUpdate) return sendHtml(req, res, 404, document(ctx, 'Not Found', html`<h1>404: Page not found</h1>`))
  sendHtml(req, res, 200, document(ctx, `Edit ${v.row.tag} · Releases · ${p.name}`, editBody(ctx, p, v)))
}

const field = (form: Record<string, unknown>, name: string) => (typeof form[name] === 'string' ? form[name] as string : undefined)

/** The edit form's POST: the release's update service, then back to its page. */
export async function releaseEditPost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, tag: string) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = findVisibleProject(ctx, projectPath)
  const date = field(form, 'released_at')
  await updateRelease(ctx, p, tag, {
    name: field(form, 'name'), description: field(form, 'description'), released_at: date && !Number.isNaN(Date.parse(date)) ? date : undefined,
  })
  await afterCommit(ctx.app)
  redirect(res, releaseUrl(ctx, p, tag))
}

/** `/-/releases[/…]`: `rest` is what follows `releases`, its tag already decoded (a tag's `/` arrives as one). */
export async function releasesGet(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, rest: string | undefined) {
  const p = findVisibleProject(ctx, projectPath)
  if (!rest) return sendHtml(req, res, 200, document(ctx, `Releases · ${p.name}`, await listBody(ctx, p)))
  const permalink = /^permalink\/latest(?:\/(.*))?$/.exec(rest)
  if (permalink) {
    const tail = permalink[1] ? `/${permalink[1]}` : ''
    return redirect(res, `${releaseUrl(ctx, p, latestRelease(ctx, p).tag)}${tail}`, 302)
  }
  if (rest.endsWith('/edit')) return editPage(ctx, req, res, p, rest.slice(0, -'/edit'.length))
  const at = rest.indexOf('/downloads/')
  if (at > 0) {
    const r = releaseForDownload(ctx, p, rest.slice(0, at))
    return redirect(res, linkAtFilepath(ctx, r, rest.slice(at + '/downloads/'.length)).url, 302)
  }
  const v = await getRelease(ctx, p, rest, true)
  sendHtml(req, res, 200, document(ctx, `${v.row.name ?? v.row.tag} · Releases · ${p.name}`, await releaseBody(ctx, p, v)))
}

/** `/-/archive/<ref>/<name>.<format>`: the tree of a ref (a release's sources), as the repository archive API makes it. */
export async function archiveGet(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, tail: string) {
  const p = findVisibleProject(ctx, projectPath)
  const slash = tail.lastIndexOf('/')
  const file = tail.slice(slash + 1)
  const format = SOURCE_FORMATS.find((f) => file.endsWith(`.${f}`)) ?? (file.endsWith('.tar.bz2') ? 'tar.bz2' : undefined)
  const ref = slash > 0 ? tail.slice(0, slash) : ''
  const a = await repositoryArchive(ctx, p, { sha: ref || undefined, format: format ?? '' }, false)
  const name = file.replace(/["\\\r\n]/g, '_')
  res.writeHead(200, {
    'Content-Type': a.kind === 'zip' ? 'application/zip' : 'application/octet-stream', 'Content-Disposition': `attachment; filename="${name}"`,
    'Content-Transfer-Encoding': 'binary', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store',
  })
  if (req.method === 'HEAD') return void (a.stream.destroy(), res.end())
  a.stream.once('error', () => res.destroy())
  res.once('close', () => a.stream.destroy())
  a.stream.pipe(res)
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^releases(?:\/(.*))?$/, page: (ctx, req, res, project, m) => releasesGet(ctx, req, res, project, m[1]) },
  { method: 'GET', rest: /^archive\/(.+)$/, page: (ctx, req, res, project, m) => archiveGet(ctx, req, res, project, m[1]) },
  {
    method: 'POST', path: underProject(String.raw`releases\/(?<tag>.+)\/edit`),
    page: (ctx, req, res) => releaseEditPost(ctx, req, res, req.params.project, req.params.tag),
  },
]
