// Snippets at GitLab's paths: `/<project>/-/snippets/<id>` and personal `/-/snippets/<id>`, their files highlighted,
// raw links (`/raw`, `/raw/<ref>/<path>`, the API's raw_url of each file) and, for project snippets, the notes.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import { notFound } from '../../../core/errors.js'
import type { RouteRequest } from '../../http/router.js'
import { renderMarkdown } from '../../services/markup/index.js'
import { listNotes, withAuthors } from '../../services/issuables/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import { authorsOf, filesOf, findPersonalSnippet, findProjectSnippet, listProjectSnippets, noteableOf, rawFile, type SnippetRow } from '../../services/snippets/index.js'
import type { ProjectView } from '../../store/projects.js'
import type { WebContext } from '../context.js'
import { ago } from '../dates.js'
import { html, pathPart, trusted, type Html } from '../html.js'
import { document, sendHtml } from '../layout.js'
import { highlighted, isBinary } from './highlight.js'
import { pager, projectPathOf, projectUrl } from './parts.js'
import { projectHeader } from './project.js'

/** The branch GitLab gives snippet repositories, which the API's file raw URLs name. */
const SNIPPET_REF = 'main'
const ALL = { page: 1, perPage: 10_000, limit: 10_000, offset: 0 }

const render = async (ctx: WebContext, text: string, p?: ProjectView) =>
  trusted(await renderMarkdown(ctx.app, text, { baseUrl: ctx.baseUrl, projectPath: p ? projectPathOf(p) : undefined }))

async function filesOfSnippet(ctx: WebContext, s: SnippetRow, url: string): Promise<Html[]> {
  const out: Html[] = []
  for (const file of filesOf(ctx, s)) {
    const raw = `${url}/raw/${SNIPPET_REF}/${pathPart(file.path)}`
    const content = isBinary(Buffer.from(file.content))
      ? html`<p class="muted">Binary file. <a href="${raw}">Download</a></p>`
      : await highlighted(file.path, file.content)
    out.push(html`<section class="snippet-file"><div class="bar"><strong class="file-name">${file.path}</strong><a href="${raw}" class="raw-link">Open raw</a></div>${content}</section>`)
  }
  return out
}

async function notesOf(ctx: WebContext, p: ProjectView, s: SnippetRow & { project_id: number }): Promise<Html> {
  const { rows } = listNotes({ ...ctx, page: ALL }, noteableOf(s), { sort: 'asc', order_by: 'created_at' })
  const out: Html[] = []
  for (const { note, author } of withAuthors(ctx, rows)) {
    out.push(html`<div class="note${note.system ? ' system' : ''}" id="note_${note.id}"><div class="muted"><strong>${author.name}</strong> @${author.username} · ${ago(ctx, note.created_at)}</div>
<div class="markdown">${await render(ctx, note.body, p)}</div></div>`)
  }
  return html`<h2>Comments</h2><div id="notes">${out.length ? out : html`<p class="muted">No comments yet.</p>`}</div>`
}

async function snippetBody(ctx: WebContext, s: SnippetRow, url: string, p?: ProjectView): Promise<Html> {
  const author = authorsOf(ctx, [s]).get(s.author_id)
  return html`<h1 id="snippet-title">${s.title}</h1>
<p class="muted"><span class="label">${s.visibility}</span> $${s.id} by ${author ? html`<a href="${ctx.baseUrl}/${pathPart(author.username)}">@${author.username}</a>` : 'a deleted user'} · ${ago(ctx, s.created_at)}</p>
${s.description ? html`<div class="markdown" id="snippet-description">${await render(ctx, s.description, p)}</div>` : ''}
<div id="snippet-files">${await filesOfSnippet(ctx, s, url)}</div>`
}

export async function projectSnippetPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, id: number) {
  const p = findVisibleProject(ctx, projectPath)
  const s = findProjectSnippet(ctx, p, id)
  const url = `${projectUrl(ctx, p)}/-/snippets/${s.id}`
  const body = html`${projectHeader(ctx, p, 'snippets')}${await snippetBody(ctx, s, url, p)}${await notesOf(ctx, p, s)}`
  sendHtml(req, res, 200, document(ctx, `${s.title} · Snippets · ${p.name}`, body))
}

/** `/<project>/-/snippets`: the snippets the viewer may read, newest first, paged as the API pages them. */
export async function projectSnippetsPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  const p = findVisibleProject(ctx, projectPath)
  const { rows, total } = listProjectSnippets(ctx, p)
  const url = `${projectUrl(ctx, p)}/-/snippets`
  const authors = authorsOf(ctx, rows)
  const items = rows.map((s) => html`<li><a href="${url}/${s.id}"><strong>${s.title}</strong></a> <span class="label">${s.visibility}</span>
<span class="muted">$${s.id} by @${authors.get(s.author_id)?.username ?? 'ghost'}</span></li>`)
  const body = html`${projectHeader(ctx, p, 'snippets')}<h2>Snippets</h2>
${rows.length ? html`<ul class="list" id="snippets">${items}</ul>` : html`<p class="muted">No snippets you can see.</p>`}${pager(ctx, url, {}, total)}`
  sendHtml(req, res, 200, document(ctx, `Snippets · ${p.name}`, body))
}

export async function personalSnippetPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, id: number) {
  const s = findPersonalSnippet(ctx, id)
  const body = await snippetBody(ctx, s, `${ctx.baseUrl}/-/snippets/${s.id}`)
  sendHtml(req, res, 200, document(ctx, `${s.title} · Snippets`, body))
}

/** `raw` (the first file) or `raw/<ref>/<path>`: the ref is the snippet repository's one branch. */
function rawPath(tail: string): string | undefined | null {
  if (tail === '') return undefined
  const prefix = `${SNIPPET_REF}/`
  return tail.startsWith(prefix) && tail.length > prefix.length ? tail.slice(prefix.length) : null
}

function sendRaw(req: RouteRequest, res: ServerResponse, content: string) {
  const body = Buffer.from(content)
  res.writeHead(200, {
    'Content-Type': isBinary(body) ? 'application/octet-stream' : 'text/plain; charset=utf-8',
    'Content-Length': String(body.length),
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  })
  res.end(req.method === 'HEAD' ? undefined : body)
}

/** A snippet's file as text, never rendered; `projectPath` null for a personal snippet. Unknown shapes are a 404. */
export async function snippetRaw(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string | null, id: number, tail: string) {
  const s = projectPath === null ? findPersonalSnippet(ctx, id) : findProjectSnippet(ctx, findVisibleProject(ctx, projectPath), id)
  const path = rawPath(tail)
  if (path === null) throw notFound('File')
  sendRaw(req, res, rawFile(ctx, s, path).content)
}

const PERSONAL_SNIPPET = /^\/-\/snippets\/(?<id>\d{1,9})(?<rest>(?:\/raw(?:\/.*)?)?)\/?$/i

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^snippets\/?$/, page: (ctx, req, res, project) => projectSnippetsPage(ctx, req, res, project) },
  { method: 'GET', rest: /^snippets\/(\d{1,9})$/, page: (ctx, req, res, project, m) => projectSnippetPage(ctx, req, res, project, Number(m[1])) },
  { method: 'GET', rest: /^snippets\/(\d{1,9})\/raw(?:\/(.*))?$/, page: (ctx, req, res, project, m) => snippetRaw(ctx, req, res, project, Number(m[1]), m[2] ?? '') },
  {
    method: 'GET', path: PERSONAL_SNIPPET, page: (ctx, req, res) => req.params.rest === ''
      ? personalSnippetPage(ctx, req, res, Number(req.params.id))
      : snippetRaw(ctx, req, res, null, Number(req.params.id), req.params.rest.replace(/^\/raw\/?/, '')),
  },
]
