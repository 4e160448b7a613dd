// A project's code pages: overview (clone URL, last commit with its pipeline, description, file tree, README), tree,
// blob with highlighting, raw file.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { listTree, openFile, readFileToShow } from '../../services/repository/index.js'
import { getCommit } from '../../services/repository/index.js'
import { renderMarkdown } from '../../services/markup/index.js'
import { lastPipelineOf } from '../../services/ci/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import { listBranchViews, listTagViews } from '../../services/repository/index.js'
import type { ProjectView } from '../../store/projects.js'
import type { WebContext } from '../context.js'
import { timeAgo } from '../dates.js'
import { html, pathPart, trusted, type Html } from '../html.js'
import { icon, pipelineStatusLink, treeIcon } from '../icons.js'
import { document, sendHtml } from '../layout.js'
import { highlighted, isBinary } from './highlight.js'
import { PAGE_SCRIPT_PATH, SCRIPT_CSP } from './job-follow.js'
import { projectPathOf, projectUrl } from './parts.js'

const ALL = { page: 1, perPage: 1000, limit: 1000, offset: 0 }

async function refNames(ctx: WebContext, p: ProjectView) {
  const all = { ...ctx, page: ALL }
  const [branches, tags] = await Promise.all([listBranchViews(all, p), listTagViews(all, p, { order_by: 'name', sort: 'asc' })])
  return { branches: branches.views.map((b) => b.name), tags: tags.views.map((t) => t.tag.name) }
}

type Refs = Awaited<ReturnType<typeof refNames>>

/** `<ref>/<path>` where refs may hold slashes: the longest branch or tag the text starts with, else its first segment. */
function splitRef(refs: Refs, tail: string): { ref: string; path: string } {
  const names = [...refs.branches, ...refs.tags].filter((n) => tail === n || tail.startsWith(`${n}/`)).sort((a, b) => b.length - a.length)
  const ref = names[0] ?? tail.split('/')[0]
  return { ref, path: tail.slice(ref.length + 1).replace(/\/+$/, '') }
}

function projectHeader(ctx: WebContext, p: ProjectView, active: 'code' | 'issues' | 'merge_requests' | 'commits' | 'pipelines' | 'wikis' | 'snippets' | 'releases'): Html {
  const url = projectUrl(ctx, p)
  const tab = (name: typeof active, href: string, label: string) => html`<a href="${href}"${active === name ? html` class="badge"` : ''}>${label}</a>`
  return html`<h1><a href="${url}">${p.ns_full_name} / ${p.name}</a></h1>
<nav class="bar">${tab('code', url, 'Code')}${p.empty_repo ? '' : tab('commits', `${url}/-/commits/${pathPart(p.default_branch ?? 'main')}`, 'Commits')}\
${p.issues_enabled ? tab('issues', `${url}/-/issues`, 'Issues') : ''}${p.merge_requests_enabled && !p.empty_repo ? tab('merge_requests', `${url}/-/merge_requests`, 'Merge requests') : ''}${p.jobs_enabled ? tab('pipelines', `${url}/-/pipelines`, 'Pipelines') : ''}\
${p.wiki_enabled ? tab('wikis', `${url}/-/wikis`, 'Wiki') : ''}${p.snippets_enabled ? tab('snippets', `${url}/-/snippets`, 'Snippets') : ''}\
${p.empty_repo ? '' : tab('releases', `${url}/-/releases`, 'Releases')}</nav>`
}

export { projectHeader }

function switcher(ctx: WebContext, p: ProjectView, refs: Refs, current: string, kind: 'tree' | 'blob', path: string): Html {
  const link = (name: string) => html`<li><a href="${projectUrl(ctx, p)}/-/${kind}/${pathPart(name)}${path ? `/${pathPart(path)}` : ''}">${name}</a></li>`
  return html`<details class="switcher"><summary>Ref: <strong id="current-ref">${current}</strong></summary>
<div>Branches<ul>${refs.branches.map(link)}</ul>${refs.tags.length ? html`Tags<ul>${refs.tags.map(link)}</ul>` : ''}</div></details>`
}

function crumbs(ctx: WebContext, p: ProjectView, ref: string, path: string): Html {
  const parts = path ? path.split('/') : []
  const base = `${projectUrl(ctx, p)}/-/tree/${pathPart(ref)}`
  return html`<div class="bar"><a href="${base}">${p.path}</a>${parts.map((part, i) => html` / <a href="${base}/${pathPart(parts.slice(0, i + 1).join('/'))}">${part}</a>`)}</div>`
}

async function treeTable(ctx: WebContext, p: ProjectView, ref: string, path: string) {
  const { items } = await listTree({ ...ctx, page: ALL }, p, { ref, path })
  const url = projectUrl(ctx, p)
  const rows = items.map((it) => {
    const href = it.type === 'commit' ? null : `${url}/-/${it.type === 'tree' ? 'tree' : 'blob'}/${pathPart(ref)}/${pathPart(it.path)}`
    return html`<tr><td class="tree-icon">${treeIcon(it.type, it.mode)}</td><td>${href ? html`<a href="${href}">${it.name}</a>` : it.name}</td></tr>`
  })
  return { items, table: html`<table id="tree"><tbody>${rows}</tbody></table>` }
}

async function readme(ctx: WebContext, p: ProjectView, ref: string, names: string[]): Promise<Html> {
  const name = names.find((n) => /^readme(\.(md|markdown|txt))?$/i.test(n))
  if (!name) return html``
  const file = await readFileToShow(ctx, p, name, ref)
  if (!file.content) return html``
  const text = file.content.toString('utf8')
  const body = /\.(md|markdown)$/i.test(name)
    ? trusted(await renderMarkdown(ctx.app, text, { baseUrl: ctx.baseUrl, projectPath: projectPathOf(p) }))
    : html`<pre>${text}</pre>`
  return html`<article class="markdown" id="readme"><h2>${name}</h2>${body}</article>`
}

/** The clone URL (HTTP; collab serves no SSH) in a field to select, with a Copy button the page script works. */
function cloneBox(ctx: WebContext, p: ProjectView): Html {
  const http = `${projectUrl(ctx, p)}.git`
  return html`<div class="clone"><label for="clone-http">Clone with HTTP</label><input id="clone-http" readonly value="${http}">
<button type="button" id="copy-clone-http" data-copy="${http}" data-copy-field="clone-http">${icon('copy')}<span>Copy</span></button></div>`
}

/** The default branch's last commit: title, author, when, and its last pipeline's status. */
async function lastCommit(ctx: WebContext, p: ProjectView, ref: string): Promise<Html> {
  const c = await getCommit(ctx, p, ref)
  const url = projectUrl(ctx, p)
  const pipeline = lastPipelineOf(ctx, p, c.id)
  return html`<div class="last-commit" id="last-commit"><a href="${url}/-/commit/${c.id}"><strong>${c.message.split('\n')[0]}</strong></a>
<span class="muted">${c.authorName} authored ${timeAgo(ctx.app.clock.now(), c.authoredDate)}</span>
${pipeline ? pipelineStatusLink(url, pipeline) : ''}<a href="${url}/-/commit/${c.id}"><code>${c.id.slice(0, 8)}</code></a></div>`
}

export async function projectPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, path: string) {
  const p = findVisibleProject(ctx, path)
  const head = html`${projectHeader(ctx, p, 'code')}${p.description ? html`<p id="description">${p.description}</p>` : ''}${cloneBox(ctx, p)}
<script src="${ctx.baseUrl}${PAGE_SCRIPT_PATH}" defer></script>`
  const send = (body: Html) => sendHtml(req, res, 200, document(ctx, p.name, body), { 'Content-Security-Policy': SCRIPT_CSP })
  if (p.empty_repo || !p.default_branch) return send(html`${head}<p class="muted">The repository is empty.</p>`)
  const refs = await refNames(ctx, p)
  const { items, table } = await treeTable(ctx, p, p.default_branch, '')
  send(html`${head}${await lastCommit(ctx, p, p.default_branch)}${switcher(ctx, p, refs, p.default_branch, 'tree', '')}${table}\
${await readme(ctx, p, p.default_branch, items.map((i) => i.name))}`)
}

export async function treePage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, tail: string) {
  const p = findVisibleProject(ctx, projectPath)
  const refs = await refNames(ctx, p)
  const { ref, path } = tail ? splitRef(refs, tail) : { ref: p.default_branch ?? 'main', path: '' }
  const { table } = await treeTable(ctx, p, ref, path)
  const body = html`${projectHeader(ctx, p, 'code')}${switcher(ctx, p, refs, ref, 'tree', path)}${crumbs(ctx, p, ref, path)}${table}`
  sendHtml(req, res, 200, document(ctx, `${path || p.name} · ${ref}`, body))
}

export async function blobPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, tail: string) {
  const p = findVisibleProject(ctx, projectPath)
  const refs = await refNames(ctx, p)
  const { ref, path } = splitRef(refs, tail)
  const file = await readFileToShow(ctx, p, path, ref)
  const raw = `${projectUrl(ctx, p)}/-/raw/${pathPart(ref)}/${pathPart(path)}`
  // Past 1 MB the file is not read: it is offered for download, as GitLab's viewer does for large files.
  const content = file.content === null
    ? html`<p class="muted">The file is too large to be shown (${file.size} bytes). <a href="${raw}">Download</a></p>`
    : isBinary(file.content)
      ? html`<p class="muted">Binary file (${file.size} bytes). <a href="${raw}">Download</a></p>`
      : await highlighted(file.fileName, file.content.toString('utf8'))
  const body = html`${projectHeader(ctx, p, 'code')}${switcher(ctx, p, refs, ref, 'blob', path)}${crumbs(ctx, p, ref, path)}
<div class="bar"><strong id="file-name">${file.fileName}</strong><a href="${raw}" id="raw-link">Open raw</a></div>${content}`
  sendHtml(req, res, 200, document(ctx, `${path} · ${ref}`, body))
}

/** The file's bytes as a download-safe text: never rendered as HTML, whatever it holds. */
export async function rawFile(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, tail: string) {
  const p = findVisibleProject(ctx, projectPath)
  const { ref, path } = splitRef(await refNames(ctx, p), tail)
  const file = await openFile(ctx, p, path, ref)
  res.writeHead(200, {
    'Content-Type': isBinary(file.head) ? 'application/octet-stream' : 'text/plain; charset=utf-8',
    'Content-Length': String(file.size),
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  })
  const body = file.body
  if (Buffer.isBuffer(body)) {
    res.end(req.method === 'HEAD' ? undefined : body)
  } else if (req.method === 'HEAD') {
    body.destroy()
    res.end()
  } else {
    // A large file goes from git to the client as it is read; a client that hangs up stops git.
    body.once('error', () => res.destroy())
    res.once('close', () => body.destroy())
    body.pipe(res)
  }
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^$/, page: (ctx, req, res, project) => projectPage(ctx, req, res, project) },
  { method: 'GET', rest: /^tree(?:\/(.*))?$/, page: (ctx, req, res, project, m) => treePage(ctx, req, res, project, m[1] ?? '') },
  { method: 'GET', rest: /^blob\/(.+)$/, page: (ctx, req, res, project, m) => blobPage(ctx, req, res, project, m[1]) },
  { method: 'GET', rest: /^raw\/(.+)$/, page: (ctx, req, res, project, m) => rawFile(ctx, req, res, project, m[1]) },
]
