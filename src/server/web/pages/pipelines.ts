// A project's pipelines: the list (status, ref, sha, source, duration, age; paginated) and one pipeline's stages and jobs
// with their durations.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { listPipelineJobs } from '../../services/ci/index.js'
import { getPipeline, listPipelines } from '../../services/ci/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import type { JobRow } from '../../store/ci-jobs.js'
import type { ProjectView } from '../../store/projects.js'
import type { WebContext } from '../context.js'
import { duration, secondsBetween, timeAgo } from '../dates.js'
import { html, pathPart, type Html } from '../html.js'
import { document, sendHtml } from '../layout.js'
import { pipelineActions } from './ci-actions.js'
import { pager, projectUrl } from './parts.js'
import { projectHeader } from './project.js'

export const statusBadge = (status: string) => html`<span class="ci-status ci-${status}">${status}</span>`

export const shortSha = (sha: string) => sha.slice(0, 8)

/** A pipeline's duration: its recorded one once finished, else the time it has run so far. */
const pipelineSeconds = (r: { duration: number | null; started_at: string | null; finished_at: string | null }, now: Date) =>
  r.duration ?? (r.finished_at ? null : secondsBetween(r.started_at, null, now))

/** Where a pipeline's ref leads: a merge request pipeline's (refs/merge-requests/<iid>/head) to its merge request. */
export function refHref(projectUrl: string, ref: string): string {
  const mr = /^refs\/merge-requests\/(\d+)\/head$/.exec(ref)
  return mr ? `${projectUrl}/-/merge_requests/${mr[1]}` : `${projectUrl}/-/commits/${pathPart(ref)}`
}

export async function pipelinesPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  const p = findVisibleProject(ctx, projectPath)
  const url = projectUrl(ctx, p)
  const { rows, total } = listPipelines(ctx, p, {})
  const now = ctx.app.clock.now()
  const items = rows.map((r) => html`<tr><td>${statusBadge(r.status)}</td><td><a href="${url}/-/pipelines/${r.id}">#${r.id}</a></td>
<td><a href="${refHref(url, r.ref)}">${r.ref}</a></td><td><a href="${url}/-/commit/${r.sha}"><code>${shortSha(r.sha)}</code></a></td>
<td>${r.source}</td><td>${duration(pipelineSeconds(r, now))}</td><td class="muted">${timeAgo(now, r.created_at)}</td></tr>`)
  const body = html`${projectHeader(ctx, p, 'pipelines')}
${items.length
    ? html`<table id="pipelines"><thead><tr><th>Status</th><th>Pipeline</th><th>Ref</th><th>Commit</th><th>Source</th><th>Duration</th><th>Created</th></tr></thead><tbody>${items}</tbody></table>`
    : html`<p class="muted">No pipelines yet.</p>`}
${pager(ctx, `${url}/-/pipelines`, {}, total)}`
  sendHtml(req, res, 200, document(ctx, `Pipelines · ${p.name}`, body))
}

function stageColumns(ctx: WebContext, p: ProjectView, jobs: JobRow[], now: Date): Html {
  const stages = new Map<string, JobRow[]>()
  for (const j of [...jobs].sort((a, b) => a.stage_idx - b.stage_idx || a.id - b.id)) stages.set(j.stage, [...(stages.get(j.stage) ?? []), j])
  const url = projectUrl(ctx, p)
  return html`<div class="stages" id="stages">${[...stages].map(([stage, list]) => html`<section class="stage"><h3>${stage}</h3><ul class="list">${list.map((j) =>
    html`<li>${statusBadge(j.status)} <a href="${url}/-/jobs/${j.id}">${j.name}</a>${j.allow_failure ? html` <span class="muted">(allowed to fail)</span>` : ''} ${duration(secondsBetween(j.started_at, j.finished_at, now))}</li>`)}</ul></section>`)}</div>`
}

export async function pipelinePage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, id: number) {
  const p = findVisibleProject(ctx, projectPath)
  const row = getPipeline(ctx, p, id)
  const { rows } = listPipelineJobs({ ...ctx, page: { page: 1, perPage: 1000, limit: 1000, offset: 0 } }, p, id, undefined)
  const url = projectUrl(ctx, p)
  const now = ctx.app.clock.now()
  const body = html`${projectHeader(ctx, p, 'pipelines')}
<h2>Pipeline #${row.id} <span id="pipeline-status">${statusBadge(row.status)}</span></h2>
<p>Ref <a href="${refHref(url, row.ref)}" id="pipeline-ref">${row.ref}</a> · commit <a href="${url}/-/commit/${row.sha}"><code>${shortSha(row.sha)}</code></a>
· source ${row.source} <span class="muted">· created ${timeAgo(now, row.created_at)}</span>
· duration <span id="pipeline-duration">${duration(pipelineSeconds(row, now))}</span></p>${pipelineActions(ctx, req, p, row)}
${row.yaml_errors ? html`<p class="flash" id="yaml-errors">${row.yaml_errors}</p>` : ''}
${rows.length ? stageColumns(ctx, p, rows, now) : html`<p class="muted">No jobs.</p>`}`
  sendHtml(req, res, 200, document(ctx, `Pipeline #${row.id} · ${p.name}`, body))
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^pipelines$/, page: (ctx, req, res, project) => pipelinesPage(ctx, req, res, project) },
  { method: 'GET', rest: /^pipelines\/(\d{1,9})$/, page: (ctx, req, res, project, m) => pipelinePage(ctx, req, res, project, Number(m[1])) },
]
