// A project's environments (GitLab's Operate > Environments): the list with state, tier, external URL and last
// deployment, and one environment's page with its deployments.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { deployingJob, lastSuccessfulDeploymentOf, listDeployments } from '../../services/ci/index.js'
import { getEnvironment, listEnvironments } from '../../services/ci/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import type { DeploymentRow, EnvironmentRow } from '../../store/environments.js'
import type { WebContext } from '../context.js'
import { ago } from '../dates.js'
import { html, type Html } from '../html.js'
import { document, sendHtml } from '../layout.js'
import { pager, projectUrl } from './parts.js'
import { refHref, shortSha, statusBadge } from './pipelines.js'
import { projectHeader } from './project.js'

/** An external URL is a link only when it is a web address: a CI job may write anything into environment:url. */
function externalLink(url: string | null): Html {
  if (!url) return html`<span class="muted">none</span>`
  return /^https?:\/\//i.test(url) ? html`<a href="${url}" rel="noopener noreferrer" class="external-url">${url}</a>` : html`<code>${url}</code>`
}

const stateBadge = (state: string) => html`<span class="badge state-${state}">${state}</span>`

function deploymentCell(url: string, d: DeploymentRow | undefined): Html {
  if (!d) return html`<span class="muted">never deployed</span>`
  return html`#${d.iid} ${statusBadge(d.status)} <a href="${refHref(url, d.ref)}">${d.ref}</a> <a href="${url}/-/commit/${d.sha}"><code>${shortSha(d.sha)}</code></a>`
}

export async function environmentsPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  const p = findVisibleProject(ctx, projectPath)
  const url = projectUrl(ctx, p)
  const { rows, total } = listEnvironments(ctx, p, {})
  const item = (e: EnvironmentRow) => html`<tr><td><a href="${url}/-/environments/${e.id}">${e.name}</a></td><td>${stateBadge(e.state)}</td>
<td>${e.tier}</td><td>${externalLink(e.external_url)}</td><td>${deploymentCell(url, lastSuccessfulDeploymentOf(ctx, e.id))}</td></tr>`
  const body = html`${projectHeader(ctx, p, 'pipelines')}
<h2>Environments</h2>
${rows.length
    ? html`<table id="environments"><thead><tr><th>Environment</th><th>State</th><th>Tier</th><th>External URL</th><th>Last deployment</th></tr></thead><tbody>${rows.map(item)}</tbody></table>`
    : html`<p class="muted">No environments yet.</p>`}
${pager(ctx, `${url}/-/environments`, {}, total)}`
  sendHtml(req, res, 200, document(ctx, `Environments · ${p.name}`, body))
}

export async function environmentPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, id: number) {
  const p = findVisibleProject(ctx, projectPath)
  const env = getEnvironment(ctx, p, id)
  const url = projectUrl(ctx, p)
  const { rows, total } = listDeployments(ctx, p, { environment: env.name, sort: 'desc' })
  const job = (d: DeploymentRow) => {
    const j = deployingJob(ctx, d)
    return j ? html`<a href="${url}/-/jobs/${j.id}">${j.name}</a>` : html`<span class="muted">API</span>`
  }
  const item = (d: DeploymentRow) => html`<tr><td>#${d.iid}</td><td>${statusBadge(d.status)}</td><td><a href="${refHref(url, d.ref)}">${d.ref}</a></td>
<td><a href="${url}/-/commit/${d.sha}"><code>${shortSha(d.sha)}</code></a></td><td>${job(d)}</td><td class="muted">${ago(ctx, d.created_at)}</td></tr>`
  const body = html`${projectHeader(ctx, p, 'pipelines')}
<h2>${env.name} <span id="environment-state">${stateBadge(env.state)}</span></h2>
<p>Tier ${env.tier} · external URL ${externalLink(env.external_url)}${env.auto_stop_at ? html` <span class="muted">· stops automatically ${ago(ctx, env.auto_stop_at)}</span>` : ''}</p>
${rows.length
    ? html`<table id="deployments"><thead><tr><th>Deployment</th><th>Status</th><th>Ref</th><th>Commit</th><th>Job</th><th>Created</th></tr></thead><tbody>${rows.map(item)}</tbody></table>`
    : html`<p class="muted">No deployments yet.</p>`}
${pager(ctx, `${url}/-/environments/${env.id}`, {}, total)}`
  sendHtml(req, res, 200, document(ctx, `${env.name} · Environments · ${p.name}`, body))
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^environments$/, page: (ctx, req, res, project) => environmentsPage(ctx, req, res, project) },
  { method: 'GET', rest: /^environments\/(\d{1,9})$/, page: (ctx, req, res, project, m) => environmentPage(ctx, req, res, project, Number(m[1])) },
]
