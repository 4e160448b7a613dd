// One job: its status and duration, the log with ANSI colours as classes (job-log.ts), the artifacts download, and,
// while the job has not ended, the follow script (job-follow.ts). Without JavaScript the page shows the log as of its load.
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { artifactsAvailable, COMPLETED_STATUSES } from '../../../core/job-status.js'
import { jobArtifactFiles, jobTrace } from '../../services/ci/index.js'
import { findJob, jobsProject } from '../../services/ci/index.js'
import { stuckReason } from '../../services/ci/index.js'
import type { WebContext } from '../context.js'
import { duration, secondsBetween, timeAgo } from '../dates.js'
import { html, pathPart } from '../html.js'
import { document, sendHtml } from '../layout.js'
import { jobActions } from './ci-actions.js'
import { PAGE_SCRIPT_PATH, SCRIPT_CSP } from './job-follow.js'
import { LOG_STYLESHEET_PATH, traceHtml } from './job-log.js'
import { projectUrl } from './parts.js'
import { refHref, shortSha, statusBadge } from './pipelines.js'
import { projectHeader } from './project.js'

// A page lists a bounded number of files; the archive download has them all.
const MAX_LISTED = 200

async function artifactList(ctx: WebContext, projectId: string, jobId: number, api: string, size: number) {
  const files = await jobArtifactFiles(ctx, projectId, jobId)
  const items = files.slice(0, MAX_LISTED).map((f) =>
    html`<li><a href="${api}/artifacts/${pathPart(f.path)}">${f.path}</a> <span class="muted">${f.size} bytes</span></li>`)
  return html`<details id="artifacts" open><summary>Artifacts: <a href="${api}/artifacts" id="artifacts-download">Download artifacts</a>
<span class="muted">(${size} bytes, ${files.length} files)</span></summary><ul class="list">${items}</ul>
${files.length > MAX_LISTED ? html`<p class="muted">${files.length - MAX_LISTED} more in the archive.</p>` : ''}</details>`
}

export async function jobPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, id: number) {
  const p = jobsProject(ctx, projectPath)
  const job = findJob(ctx, p, id)
  const trace = await jobTrace(ctx, String(p.id), job.id)
  const url = projectUrl(ctx, p)
  // The script reads the page's own trace.json, which lets in whoever may see this page.
  const follow = !COMPLETED_STATUSES.has(job.status)
  const api = `${ctx.apiUrl}/projects/${p.id}/jobs/${job.id}`
  const stuck = stuckReason(ctx, job)
  const now = ctx.app.clock.now()
  const artifacts = artifactsAvailable(job, ctx.app.clock.now()) ? await artifactList(ctx, String(p.id), job.id, api, job.artifacts_size ?? 0) : ''
  const body = html`${projectHeader(ctx, p, 'pipelines')}
<h2 id="job-name">${job.name}</h2>
<p><span id="job-status" class="ci-status ci-${job.status}">${job.status}</span> · stage ${job.stage}
· <a href="${url}/-/pipelines/${job.pipeline_id}">pipeline #${job.pipeline_id}</a> · <a href="${refHref(url, job.ref)}">${job.ref}</a>
· <a href="${url}/-/commit/${job.sha}"><code>${shortSha(job.sha)}</code></a></p>
<p class="muted" id="job-times">Duration ${duration(secondsBetween(job.started_at, job.finished_at, now))}${job.queued_at && job.started_at ? html` · queued ${duration(secondsBetween(job.queued_at, job.started_at, now))}` : ''}
· created ${timeAgo(now, job.created_at)}${job.finished_at ? html` · finished ${timeAgo(now, job.finished_at)}` : ''}</p>${stuck ? html`<p id="job-stuck" class="notice">${stuck}</p>` : ''}${jobActions(ctx, req, p, job)}${artifacts}
<link rel="stylesheet" href="${ctx.baseUrl}${LOG_STYLESHEET_PATH}">
<pre class="trace" id="trace" data-follow="${follow ? '1' : '0'}" data-offset="${trace.length}" data-trace-url="${url}/-/jobs/${job.id}/trace.json">${traceHtml(trace)}</pre>
${follow ? html`<script src="${ctx.baseUrl}${PAGE_SCRIPT_PATH}" defer></script>` : ''}`
  sendHtml(req, res, 200, document(ctx, `${job.name} · ${p.name}`, body), follow ? { 'Content-Security-Policy': SCRIPT_CSP } : {})
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^jobs\/(\d{1,9})$/, page: (ctx, req, res, project, m) => jobPage(ctx, req, res, project, Number(m[1])) },
]
