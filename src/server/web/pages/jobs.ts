// One job: its status, the log with ANSI colours (ansi_up, which escapes the text), the artifacts download, and, while
// the job has not ended, the follow script (job-follow.ts). Without JavaScript the page shows the log as of its load.
import type { ServerResponse } from 'node:http'
import { AnsiUp } from 'ansi_up'
import type { RouteRequest } from '../../http/router.js'
import { artifactsAvailable, COMPLETED_STATUSES } from '../../../core/job-status.js'
import { jobArtifactFiles, jobTrace } from '../../services/job-artifacts.js'
import { findJob, jobsProject } from '../../services/jobs.js'
import { stuckReason } from '../../services/runners.js'
import type { WebContext } from '../context.js'
import { html, pathPart, trusted } from '../html.js'
import { document, sendHtml } from '../layout.js'
import { jobActions } from './ci-actions.js'
import { JOB_CSP, JOB_SCRIPT_PATH } from './job-follow.js'
import { projectUrl } from './parts.js'
import { refHref, shortSha, statusBadge } from './pipelines.js'
import { projectHeader } from './project.js'

/** The log as HTML: ansi_up escapes every character of text and emits only spans with its own class names. */
export function traceHtml(trace: Buffer) {
  const ansi = new AnsiUp()
  ansi.use_classes = true
  // A log makes no links: OSC 8 hyperlinks lose their sequences and keep their text (ansi_up, allowed no scheme, would
  // drop the text too); lone carriage returns (progress bars) go, as a page cannot overwrite a line.
  ansi.url_allowlist = {}
  const text = trace.toString('utf8').replace(/\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '').replace(/\r(?!\n)/g, '')
  return trusted(ansi.ansi_to_html(text))
}

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
  // The jobs API wants a signed-in caller (as GitLab's does): an anonymous viewer reloads instead of following.
  const follow = !COMPLETED_STATUSES.has(job.status) && ctx.user !== null
  const api = `${ctx.apiUrl}/projects/${p.id}/jobs/${job.id}`
  const stuck = stuckReason(ctx, job)
  const artifacts = artifactsAvailable(job, ctx.app.clock.now()) ? await artifactList(ctx, String(p.id), job.id, api, job.artifacts_size ?? 0) : ''
  const body = html`${projectHeader(ctx, p, 'pipelines')}
<h2 id="job-name">${job.name}</h2>
<p><span id="job-status" class="ci-status ci-${job.status}">${job.status}</span> · stage ${job.stage}
· <a href="${url}/-/pipelines/${job.pipeline_id}">pipeline #${job.pipeline_id}</a> · <a href="${refHref(url, job.ref)}">${job.ref}</a>
· <a href="${url}/-/commit/${job.sha}"><code>${shortSha(job.sha)}</code></a></p>${stuck ? html`<p id="job-stuck" class="notice">${stuck}</p>` : ''}${jobActions(ctx, req, p, job)}${artifacts}
<pre class="trace" id="trace" data-follow="${follow ? '1' : '0'}" data-offset="${trace.length}" data-trace-url="${api}/trace" data-job-url="${api}">${traceHtml(trace)}</pre>
${follow ? html`<script src="${ctx.baseUrl}${JOB_SCRIPT_PATH}" defer></script>` : ''}`
  sendHtml(req, res, 200, document(ctx, `${job.name} · ${p.name}`, body), follow ? { 'Content-Security-Policy': JOB_CSP } : {})
}
