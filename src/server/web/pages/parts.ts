// Pieces several pages share: pagination links, a refused form, relative paths to a project.
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import type { ProjectView } from '../../store/projects.js'
import type { WebContext } from '../context.js'
import { html, pathPart, query, type Html } from '../html.js'
import { document, sendHtml } from '../layout.js'

export function pager(ctx: WebContext, url: string, params: Record<string, string | undefined>, total: number): Html {
  const { page, perPage } = ctx.page
  const last = Math.max(1, Math.ceil(total / perPage))
  if (last === 1) return html``
  const link = (n: number, label: string) => html`<a href="${url}${query({ ...params, page: n })}" rel="${label === 'Next' ? 'next' : 'prev'}">${label}</a>`
  return html`<nav class="pager">${page > 1 ? link(page - 1, 'Prev') : ''}<span>Page ${page} of ${last}</span>${page < last ? link(page + 1, 'Next') : ''}</nav>`
}

export const projectUrl = (ctx: WebContext, p: ProjectView) => `${ctx.baseUrl}/${pathPart(`${p.ns_full_path}/${p.path}`)}`
export const projectPathOf = (p: ProjectView) => `${p.ns_full_path}/${p.path}`

export const labelList = (labels: string[]) => labels.map((l) => html`<span class="label">${l}</span>`)

/** A form without the session's CSRF token (or from nobody): refused, nothing written. */
export const refuseForm = (ctx: WebContext, req: RouteRequest, res: ServerResponse) =>
  sendHtml(req, res, 422, document(ctx, 'Refused', html`<h1>422</h1><p>The form has expired. Go back, reload and try again.</p>`))
