// A project's wiki: `/-/wikis` (home, else the list of pages), `/-/wikis/pages` and `/-/wikis/<slug>` rendered by format
// (`?version_id=<sha>` for an older version).
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { renderMarkdown } from '../../services/markup/index.js'
import { getPage, listPages, wikiProject, type WikiPageView } from '../../services/wikis/index.js'
import type { ProjectView } from '../../store/projects.js'
import type { WebContext } from '../context.js'
import { html, pathPart, trusted, type Html } from '../html.js'
import { document, redirect, sendHtml } from '../layout.js'
import { projectPathOf, projectUrl } from './parts.js'
import { projectHeader } from './project.js'

/** The header's tabs name no wiki: none is marked. */

const wikiUrl = (ctx: WebContext, p: ProjectView) => `${projectUrl(ctx, p)}/-/wikis`

function pageList(ctx: WebContext, p: ProjectView, pages: WikiPageView[], current?: string): Html {
  if (!pages.length) return html`<p class="muted" id="wiki-empty">This wiki has no pages yet.</p>`
  const item = (page: WikiPageView) => html`<li><a href="${wikiUrl(ctx, p)}/${pathPart(page.slug)}"${page.slug === current ? html` class="badge"` : ''}>${page.title}</a>
<span class="muted">${page.slug}</span></li>`
  return html`<ul class="list" id="wiki-pages">${pages.map(item)}</ul>`
}

/**
 * Markdown as everywhere else (references are links); rdoc, AsciiDoc and Org have no light, maintained renderer
 * for Node (asciidoctor.js alone is megabytes), so their source shows as preformatted text, as the API's render_html does.
 */
async function rendered(ctx: WebContext, p: ProjectView, page: WikiPageView & { content: string }): Promise<Html> {
  if (page.format === 'markdown') {
    return html`<div class="markdown" id="wiki-content">${trusted(await renderMarkdown(ctx.app, page.content, { baseUrl: ctx.baseUrl, projectPath: projectPathOf(p) }))}</div>`
  }
  return html`<p class="muted" id="wiki-source-note">This page is written in ${page.format}; it is shown as its source.</p>
<pre id="wiki-content">${page.content}</pre>`
}

async function sendList(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView) {
  const pages = await listPages(ctx, p, false)
  const body = html`${projectHeader(ctx, p, 'wikis')}<h2>Wiki pages</h2>${pageList(ctx, p, pages)}`
  sendHtml(req, res, 200, document(ctx, `Wiki · ${p.name}`, body))
}

/** GitLab's `/-/wikis` opens the home page; a wiki without one shows its pages instead. */
export async function wikiIndex(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  const p = wikiProject(ctx, projectPath)
  const pages = await listPages(ctx, p, false)
  if (pages.some((page) => page.slug === 'home')) return redirect(res, `${wikiUrl(ctx, p)}/home`)
  await sendList(ctx, req, res, p)
}

export async function wikiPagesPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  await sendList(ctx, req, res, wikiProject(ctx, projectPath))
}

/** GitLab's `?version_id=<sha>`: the page as it was at that commit of the wiki. */
const versionOf = (req: RouteRequest) => {
  const v = req.query.version_id
  return typeof v === 'string' && /^[0-9a-f]{4,64}$/i.test(v) ? v : undefined
}

export async function wikiPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, slug: string) {
  const p = wikiProject(ctx, projectPath)
  const [page, pages] = await Promise.all([getPage(ctx, p, slug, versionOf(req)), listPages(ctx, p, false)])
  const side = html`<aside class="side"><strong>Pages</strong>${pageList(ctx, p, pages, page.slug)}
<p><a href="${wikiUrl(ctx, p)}/pages">All pages</a></p></aside>`
  const body = html`${projectHeader(ctx, p, 'wikis')}${side}<h1 id="wiki-title">${page.title}</h1>
<p class="muted"><span id="wiki-slug">${page.slug}</span> · ${page.format}</p>${await rendered(ctx, p, page)}`
  sendHtml(req, res, 200, document(ctx, `${page.title} · Wiki · ${p.name}`, body))
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^wikis\/?$/, page: (ctx, req, res, project) => wikiIndex(ctx, req, res, project) },
  { method: 'GET', rest: /^wikis\/pages$/, page: (ctx, req, res, project) => wikiPagesPage(ctx, req, res, project) },
  { method: 'GET', rest: /^wikis\/(?!pages$)(.+)$/, page: (ctx, req, res, project, m) => wikiPage(ctx, req, res, project, m[1]) },
]
