// A new merge request from a branch (`/-/merge_requests/new`: pick the source and target, then see the commits and
// the diff beside the form, posted to `/-/merge_requests`) and a merge request's edit page (`/-/merge_requests/<iid>/edit`),
// through the merge request services and their permission checks.
import type { PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import { notFound, unauthorized } from '../../../core/errors.js'
import { afterCommit } from '../../http/mount.js'
import type { RouteRequest } from '../../http/router.js'
import { updateMergeRequest, createMergeRequest } from '../../services/merge-requests/index.js'
import { bundle, findVisibleMergeRequest, type MergeRequestRow } from '../../services/merge-requests/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import { listBranchViews } from '../../services/repository/index.js'
import { compareRefs } from '../../services/repository/index.js'
import { DEVELOPER, effectiveProjectLevel, REPORTER } from '../../policy.js'
import type { ProjectView } from '../../store/projects.js'
import { readForm, type WebContext } from '../context.js'
import { html, type Html } from '../html.js'
import { document, redirect, sendHtml } from '../layout.js'
import { diffFiles } from './diff.js'
import { checked, errorText, fieldsFromForm, formRoutes, isFormError, metadataInput, sendIssuableForm, text, type IssuableFields } from './issuable-form.js'
import { projectUrl, refuseForm } from './parts.js'
import { shortSha } from './pipelines.js'
import { projectHeader } from './project.js'

function mergeRequestsProject(ctx: WebContext, projectPath: string): ProjectView {
  if (!ctx.user) throw unauthorized()
  const p = findVisibleProject(ctx, projectPath)
  if (!p.merge_requests_enabled || effectiveProjectLevel(ctx, p) < DEVELOPER) throw notFound('Project')
  return p
}

const ALL = { page: 1, perPage: 100, limit: 100, offset: 0 }

function branchSelect(name: string, id: string, branches: string[], selected: string): Html {
  return html`<select name="${name}" id="${id}">${branches.map((b) => html`<option value="${b}"${b === selected ? html` selected` : ''}>${b}</option>`)}</select>`
}

/** Step one: which branch into which. */
async function pickBranches(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView, source: string, target: string, error?: string) {
  const branches = (await listBranchViews({ ...ctx, page: ALL }, p)).views.map((b) => b.name)
  const body = html`${projectHeader(ctx, p, 'merge_requests')}<h1>New merge request</h1>${error ? html`<p class="flash" id="form-error">${error}</p>` : ''}
<form method="get" action="${projectUrl(ctx, p)}/-/merge_requests/new" id="branch-form" class="bar">
<label>Source branch ${branchSelect('merge_request[source_branch]', 'source-branch', branches, source)}</label>
<label>Target branch ${branchSelect('merge_request[target_branch]', 'target-branch', branches, target || (p.default_branch ?? ''))}</label>
<button type="submit" id="compare-button">Compare branches and continue</button></form>`
  sendHtml(req, res, error ? 422 : 200, document(ctx, 'New merge request', body))
}

interface Branches { source: string; target: string }

/** Step two: the form, with what the merge request would bring (its commits and diff) below it. */
async function newMergeRequestForm(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView, b: Branches, f: IssuableFields | null, extra: { preview?: boolean; error?: string } = {}) {
  const c = await compareRefs(ctx, p, { id: String(p.id), from: b.target, to: b.source })
  const base = projectUrl(ctx, p)
  const commits = c.commits.map((x) => html`<li><a href="${base}/-/commit/${x.id}"><strong>${x.message.split('\n')[0]}</strong></a>
<div class="muted">${x.authorName} · <code>${shortSha(x.id)}</code></div></li>`)
  const below = html`<h2>Commits (${c.commits.length})</h2>${commits.length ? html`<ul class="list" id="new-mr-commits">${commits}</ul>` : html`<p class="muted">No commits to merge.</p>`}
<h2>Changes (${c.diffs.length})</h2><div id="new-mr-diff">${diffFiles(c.diffs, 'inline')}</div>`
  // GitLab's default title: the one commit's title, else the branch name made readable.
  const title = c.commits.length === 1 ? c.commits[0].message.split('\n')[0] : b.source.replace(/[-_]/g, ' ').replace(/^./, (s) => s.toUpperCase())
  const fields = f ?? { title, description: c.commits.length === 1 ? c.commits[0].message.split('\n').slice(1).join('\n').trim() : '', labels: '', assignees: '', milestoneId: '0', confidential: false }
  await sendIssuableForm(ctx, req, res, p, fields, {
    heading: 'New merge request', action: `${base}/-/merge_requests`, submit: 'Create merge request', metadata: effectiveProjectLevel(ctx, p) >= REPORTER,
    before: html`<p>From <code id="new-mr-source">${b.source}</code> into <code id="new-mr-target">${b.target}</code>
<a href="${base}/-/merge_requests/new">Change branches</a></p>
<input type="hidden" name="source_branch" value="${b.source}"><input type="hidden" name="target_branch" value="${b.target}">`,
    after: html`<p><label><input type="checkbox" name="remove_source_branch" value="1" id="new-mr-remove-source" checked> Delete source branch when merged</label>
<label><input type="checkbox" name="squash" value="1" id="new-mr-squash"> Squash commits when merged</label></p>`,
    below, ...extra,
  }, projectHeader(ctx, p, 'merge_requests'))
}

export async function newMergeRequestPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  const p = mergeRequestsProject(ctx, projectPath)
  const source = text(req.query['merge_request[source_branch]'], 1024)
  const target = text(req.query['merge_request[target_branch]'], 1024) || (p.default_branch ?? '')
  if (!source || !target) return pickBranches(ctx, req, res, p, source, target)
  if (source === target) return pickBranches(ctx, req, res, p, source, target, 'Pick two different branches.')
  try {
    await newMergeRequestForm(ctx, req, res, p, { source, target }, null)
  } catch (err) {
    if (!(err instanceof Error && 'status' in err && err.status === 404)) throw err
    await pickBranches(ctx, req, res, p, '', target, 'The source branch does not exist.')
  }
}

export async function createMergeRequestPost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = mergeRequestsProject(ctx, projectPath)
  const b = { source: text(form.source_branch, 1024), target: text(form.target_branch, 1024) }
  const f = fieldsFromForm(form)
  if (checked(form.preview)) return newMergeRequestForm(ctx, req, res, p, b, f, { preview: true })
  let mr: MergeRequestRow
  try {
    mr = await createMergeRequest(ctx, p, {
      source_branch: b.source, target_branch: b.target, title: f.title, description: f.description || undefined,
      remove_source_branch: checked(form.remove_source_branch), squash: checked(form.squash), ...metadataInput(ctx, f),
    })
  } catch (err) {
    if (!isFormError(err)) throw err
    return newMergeRequestForm(ctx, req, res, p, b, f, { error: errorText(err) })
  }
  await afterCommit(ctx.app)
  redirect(res, `${projectUrl(ctx, p)}/-/merge_requests/${mr.iid}`)
}

/** Authors and Developers edit (the service checks again); labels, assignees and milestone need Reporter. */
function editable(ctx: WebContext, projectPath: string, iid: number) {
  if (!ctx.user) throw unauthorized()
  const p = findVisibleProject(ctx, projectPath)
  const mr = findVisibleMergeRequest(ctx, p, iid)
  if (mr.author_id !== ctx.user.id && effectiveProjectLevel(ctx, p) < DEVELOPER) throw notFound('Merge Request')
  return { p, mr, metadata: effectiveProjectLevel(ctx, p) >= REPORTER }
}

const stateField = (state: string) => state === 'merged' ? html`` : html`<p><label>State <select name="state_event" id="issuable-state">
<option value="">${state === 'opened' ? 'Open' : 'Closed'} (unchanged)</option><option value="${state === 'opened' ? 'close' : 'reopen'}">${state === 'opened' ? 'Close' : 'Reopen'}</option></select></label></p>`

async function editForm(ctx: WebContext, req: RouteRequest, res: ServerResponse, e: ReturnType<typeof editable>, f: IssuableFields, target: string, extra: { preview?: boolean; error?: string } = {}) {
  const url = `${projectUrl(ctx, e.p)}/-/merge_requests/${e.mr.iid}`
  const branches = (await listBranchViews({ ...ctx, page: ALL }, e.p)).views.map((b) => b.name)
  await sendIssuableForm(ctx, req, res, e.p, f, {
    heading: `Edit merge request !${e.mr.iid}`, action: `${url}/edit`, submit: 'Save changes', metadata: e.metadata,
    after: html`<p><label>Target branch ${branchSelect('target_branch', 'edit-target-branch', branches, target)}</label></p>${stateField(e.mr.state)}`, ...extra,
  }, html`${projectHeader(ctx, e.p, 'merge_requests')}<p><a href="${url}">← !${e.mr.iid}</a></p>`)
}

export async function editMergeRequestPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, iid: number) {
  const e = editable(ctx, projectPath, iid)
  const b = bundle(ctx, e.mr)
  await editForm(ctx, req, res, e, {
    title: e.mr.title, description: e.mr.description ?? '', labels: b.labels.join(', '), assignees: b.assignees.map((a) => a.username).join(', '),
    milestoneId: String(e.mr.milestone_id ?? 0), confidential: false,
  }, e.mr.target_branch)
}

export async function editMergeRequestPost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, iid: number) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const e = editable(ctx, projectPath, iid)
  const f = fieldsFromForm(form)
  const target = text(form.target_branch, 1024) || e.mr.target_branch
  if (checked(form.preview)) return editForm(ctx, req, res, e, f, target, { preview: true })
  const state = text(form.state_event)
  try {
    await updateMergeRequest(ctx, e.p, e.mr, {
      title: f.title, description: f.description, target_branch: target === e.mr.target_branch ? undefined : target,
      state_event: state === 'close' || state === 'reopen' ? state : undefined, ...(e.metadata ? metadataInput(ctx, f) : {}),
    })
  } catch (err) {
    if (!isFormError(err)) throw err
    return editForm(ctx, req, res, e, f, target, { error: errorText(err) })
  }
  await afterCommit(ctx.app)
  redirect(res, `${projectUrl(ctx, e.p)}/-/merge_requests/${e.mr.iid}`)
}

export const routes: PageRoute[] = formRoutes('merge_requests', {
  blank: newMergeRequestPage, create: createMergeRequestPost, edit: editMergeRequestPage, update: editMergeRequestPost,
})
