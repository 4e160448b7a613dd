// The page behind a comparison's web_url (`/-/compare/FROM...TO`, or `FROM..TO` for a straight one): the commits of
// TO since FROM and the diff, through the same service as GET …/repository/compare.
import { webNotFound, type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { findVisibleProject } from '../../services/projects/index.js'
import { compareRefs } from '../../services/repository/index.js'
import type { WebContext } from '../context.js'
import { ago } from '../dates.js'
import { html } from '../html.js'
import { document, sendHtml } from '../layout.js'
import { diffFiles, diffViewToggle } from './diff.js'
import { projectUrl } from './parts.js'
import { shortSha } from './pipelines.js'
import { projectHeader } from './project.js'

/** `FROM...TO` or `FROM..TO`; undefined for anything else (the caller answers 404). */
export function parseRange(range: string): { from: string; to: string; straight: boolean } | undefined {
  const m = /^(.+?)(\.{2,3})(.+)$/.exec(range)
  if (!m) return undefined
  try {
    return { from: decodeURIComponent(m[1]), to: decodeURIComponent(m[3]), straight: m[2] === '..' }
  } catch {
    return undefined // a stray `%`: no ref is named so
  }
}

export async function comparePage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, range: { from: string; to: string; straight: boolean }) {
  const p = findVisibleProject(ctx, projectPath)
  const c = await compareRefs(ctx, p, { id: String(p.id), ...range })
  const view = req.query.view === 'parallel' ? 'parallel' : 'inline'
  const base = projectUrl(ctx, p)
  const url = `${base}/-/compare/${req.path.split('/-/compare/')[1] ?? ''}`
  const commits = c.commits.map((x) => html`<li><a href="${base}/-/commit/${x.id}"><strong>${x.message.split('\n')[0]}</strong></a>
<div class="muted">${x.authorName} authored ${ago(ctx, x.authoredDate)} · <code>${shortSha(x.id)}</code></div></li>`)
  const summary = c.same
    ? html`<p class="muted" id="compare-same">These refs are the same commit.</p>`
    : html`<p class="muted" id="compare-summary">${c.commits.length} commits, ${c.diffs.length} files changed${c.overflow ? ' (too many to show all)' : ''}</p>`
  const body = html`${projectHeader(ctx, p, 'commits')}<h2 id="compare-title">Compare <code>${range.from}</code> ${range.straight ? '..' : '...'} <code>${range.to}</code></h2>
${summary}${commits.length ? html`<ul class="list" id="compare-commits">${commits}</ul>` : ''}
${diffViewToggle(url, view)}${diffFiles(c.diffs, view)}`
  sendHtml(req, res, 200, document(ctx, `Compare ${range.from}...${range.to} · ${p.name}`, body))
}

export const routes: PageRoute[] = [
  {
    method: 'GET', rest: /^compare\/(.+)$/, page: (ctx, req, res, project, m) => {
      const range = parseRange(m[1])
      return range ? comparePage(ctx, req, res, project, range) : webNotFound(ctx.app, req, res)
    },
  },
]
