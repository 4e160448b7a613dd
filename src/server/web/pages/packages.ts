// The package registry at GitLab's web paths, where a package's `_links.web_path` points: `/<project>/-/packages` (the
// list) and `/-/packages/<id>` (one package with its files, each linked to the generic package download, which reads
// the session cookie as the API does).
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { getProjectPackage, listPackageFiles, listProjectPackages } from '../../services/releases/index.js'
import type { WebContext } from '../context.js'
import { ago } from '../dates.js'
import { html, pathPart } from '../html.js'
import { document, notFoundBody, sendHtml } from '../layout.js'
import { pager, projectUrl } from './parts.js'
import { projectHeader } from './project.js'

const packagesUrl = (ctx: WebContext, p: Parameters<typeof projectUrl>[1]) => `${projectUrl(ctx, p)}/-/packages`

async function listPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  const { project: p, rows, total } = listProjectPackages(ctx, projectPath, {})
  const items = rows.map((pkg) => html`<li><a href="${packagesUrl(ctx, p)}/${pkg.id}"><strong>${pkg.name}</strong></a> ${pkg.version ?? ''}
<span class="muted">${pkg.package_type} · ${ago(ctx, pkg.created_at)}</span></li>`)
  const body = html`${projectHeader(ctx, p, 'code')}<h2>Package registry</h2>
${items.length ? html`<ul class="list" id="packages">${items}</ul>` : html`<p class="muted">No packages.</p>`}${pager(ctx, packagesUrl(ctx, p), {}, total)}`
  sendHtml(req, res, 200, document(ctx, `Package registry · ${p.name}`, body))
}

async function packagePage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, id: number) {
  const { project: p, pkg } = getProjectPackage(ctx, projectPath, id)
  const { rows, total } = listPackageFiles(ctx, projectPath, id, {})
  const download = (file: string) =>
    `${ctx.baseUrl}/api/v4/projects/${p.id}/packages/generic/${pathPart(pkg.name)}/${pathPart(pkg.version ?? '')}/${pathPart(file)}`
  const files = rows.map((f) => html`<li>${pkg.package_type === 'generic' ? html`<a href="${download(f.file_name)}">${f.file_name}</a>` : f.file_name}
<span class="muted">${f.size} bytes · ${ago(ctx, f.created_at)} · sha256 <code>${f.file_sha256 ?? ''}</code></span></li>`)
  const body = html`${projectHeader(ctx, p, 'code')}<p><a href="${packagesUrl(ctx, p)}">Package registry</a></p>
<h2 id="package-name">${pkg.name} ${pkg.version ?? ''}</h2><p class="muted">${pkg.package_type} · ${pkg.status}</p>
<h3>Files (${total})</h3><ul class="list" id="package-files">${files}</ul>${pager(ctx, `${packagesUrl(ctx, p)}/${pkg.id}`, {}, total)}`
  sendHtml(req, res, 200, document(ctx, `${pkg.name} · Package registry · ${p.name}`, body))
}

/** `/-/packages[/<id>]`: `rest` is what follows `packages`. */
export async function packagesGet(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, rest: string | undefined) {
  if (!rest) return listPage(ctx, req, res, projectPath)
  if (/^\d{1,9}$/.test(rest)) return packagePage(ctx, req, res, projectPath, Number(rest))
  sendHtml(req, res, 404, notFoundBody(ctx))
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^packages(?:\/(.*))?$/, page: (ctx, req, res, project, m) => packagesGet(ctx, req, res, project, m[1]) },
]
