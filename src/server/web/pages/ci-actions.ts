// The buttons of the job and pipeline pages (retry, cancel, play) as forms carrying the CSRF token, and their POSTs,
// which go through the same services as `POST …/jobs/:id/retry` and `POST …/pipelines/:id/cancel`.
import { underProject, type PageRoute } from '../page-routes.js'
import { CANCELABLE_STATUSES, FINISHED_STATUSES, PLAYABLE_STATUSES } from '../../../core/job-status.js'
import type { ServerResponse } from 'node:http'
import { CollabError } from '../../../core/errors.js'
import { afterCommit } from '../../http/mount.js'
import type { RouteRequest } from '../../http/router.js'
import * as jobs from '../../services/ci/index.js'
import * as pipelines from '../../services/ci/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import type { JobRow } from '../../store/ci-jobs.js'
import type { PipelineRow } from '../../store/pipelines.js'
import type { ProjectView } from '../../store/projects.js'
import { readForm, type WebContext } from '../context.js'
import { html, type Html } from '../html.js'
import { csrfField, redirect } from '../layout.js'
import { projectUrl, refuseForm } from './parts.js'

export type JobAction = 'retry' | 'cancel' | 'play'
export type PipelineAction = 'retry' | 'cancel'

const LABELS: Record<JobAction, string> = { retry: 'Retry', cancel: 'Cancel', play: 'Run' }

const button = (ctx: WebContext, url: string, action: JobAction, what: string) =>
  html`<form method="post" action="${url}/${action}" class="inline" id="${what}-${action}-form">${csrfField(ctx)}<button type="submit" id="${what}-${action}">${LABELS[action]}</button></form>`

const errorLine = (req: RouteRequest, what: string): Html =>
  typeof req.query.action_error === 'string' && Object.hasOwn(LABELS, req.query.action_error)
    ? html`<p class="flash" id="action-error">The ${what} could not be changed that way: its state has changed. Reload and try again.</p>` : html``

/** Whether the viewer may act on the project's jobs: the check the jobs API makes (update_build), without throwing. */
function mayActOnJob(ctx: WebContext, p: ProjectView, job: JobRow): boolean {
  if (!ctx.user) return false
  try {
    jobs.actionable(ctx, String(p.id), job.id)
    return true
  } catch {
    return false
  }
}

export function jobActions(ctx: WebContext, req: RouteRequest, p: ProjectView, job: JobRow): Html {
  const error = errorLine(req, 'job')
  if (job.retried || !mayActOnJob(ctx, p, job)) return error
  const url = `${projectUrl(ctx, p)}/-/jobs/${job.id}`
  const manual = job.when_ === 'manual' || job.when_ === 'delayed'
  const actions: JobAction[] = []
  if (manual && PLAYABLE_STATUSES.has(job.status)) actions.push('play')
  else if (FINISHED_STATUSES.has(job.status)) actions.push('retry')
  if (CANCELABLE_STATUSES.has(job.status)) actions.push('cancel')
  return html`${error}<div class="bar" id="job-actions">${actions.map((a) => button(ctx, url, a, 'job'))}</div>`
}

export function pipelineActions(ctx: WebContext, req: RouteRequest, p: ProjectView, row: PipelineRow): Html {
  const error = errorLine(req, 'pipeline')
  // The pipelines API's own check: Developers, and on a protected branch only who may push or merge into it.
  if (!ctx.user || !pipelines.canUpdatePipeline(ctx, p, row)) return error
  const url = `${projectUrl(ctx, p)}/-/pipelines/${row.id}`
  const actions: PipelineAction[] = []
  if (row.status === 'failed' || row.status === 'canceled') actions.push('retry')
  if (CANCELABLE_STATUSES.has(row.status)) actions.push('cancel')
  return html`${error}<div class="bar" id="pipeline-actions">${actions.map((a) => button(ctx, url, a, 'pipeline'))}</div>`
}

/** A refusal of the action itself (not of the caller) goes back to the page with a fixed message. */
const refusedAction = (err: unknown) => err instanceof CollabError && (err.status === 400 || (err.status === 403 && err.message !== '403 Forbidden'))

export async function jobPost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, id: number, action: JobAction) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = jobs.jobsProject(ctx, projectPath)
  const url = `${projectUrl(ctx, p)}/-/jobs`
  let after: JobRow
  try {
    const run = action === 'retry' ? jobs.retryJob : action === 'cancel' ? jobs.cancelJob : jobs.play
    after = run(ctx, String(p.id), id).job
  } catch (err) {
    if (!refusedAction(err)) throw err
    return redirect(res, `${url}/${id}?action_error=${action}`)
  }
  await afterCommit(ctx.app)
  // A retry (or a replay) is a new job: its page is where the new log grows.
  redirect(res, `${url}/${after.id}`)
}

export async function pipelinePost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, id: number, action: PipelineAction) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = findVisibleProject(ctx, projectPath)
  const url = `${projectUrl(ctx, p)}/-/pipelines/${id}`
  try {
    if (action === 'retry') pipelines.retryPipeline(ctx, p, id)
    else pipelines.cancelPipeline(ctx, p, id)
  } catch (err) {
    if (!refusedAction(err)) throw err
    return redirect(res, `${url}?action_error=${action}`)
  }
  await afterCommit(ctx.app)
  redirect(res, url)
}

export const routes: PageRoute[] = [
  {
    method: 'POST', path: underProject(String.raw`jobs\/(?<id>\d{1,9})\/(?<action>retry|cancel|play)`),
    page: (ctx, req, res) => jobPost(ctx, req, res, req.params.project, Number(req.params.id), req.params.action.toLowerCase() as JobAction),
  },
  {
    method: 'POST', path: underProject(String.raw`pipelines\/(?<id>\d{1,9})\/(?<action>retry|cancel)`),
    page: (ctx, req, res) => pipelinePost(ctx, req, res, req.params.project, Number(req.params.id), req.params.action.toLowerCase() as PipelineAction),
  },
]
