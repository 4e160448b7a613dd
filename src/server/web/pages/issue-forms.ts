// A new issue (`/-/issues/new`, posted to `/-/issues`) and an issue's edit page (`/-/issues/<iid>/edit`): title,
// description with a preview, labels, assignees, milestone, confidentiality and state, through the issues service
// and its permission checks, as plain HTML forms with the CSRF token.
import { underProject, type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import { notFound, unauthorized } from '../../../core/errors.js'
import { afterCommit } from '../../http/mount.js'
import type { RouteRequest } from '../../http/router.js'
import { bundle, createIssue, editIssue, findVisibleIssue, type IssueRow } from '../../services/issuables/index.js'
import { replyTo } from '../../services/issuables/index.js'
import { findVisibleProject } from '../../services/projects/index.js'
import { canAdminIssues, effectiveProjectLevel, GUEST } from '../../policy.js'
import type { ProjectView } from '../../store/projects.js'
import { readForm, type WebContext } from '../context.js'
import { html } from '../html.js'
import { redirect } from '../layout.js'
import { checked, errorText, fieldsFromForm, formRoutes, isFormError, metadataInput, sendIssuableForm, text, type IssuableFields } from './issuable-form.js'
import { projectUrl, refuseForm } from './parts.js'
import { projectHeader } from './project.js'

const EMPTY: IssuableFields = { title: '', description: '', labels: '', assignees: '', milestoneId: '0', confidential: false }

function issuesProject(ctx: WebContext, projectPath: string): ProjectView {
  if (!ctx.user) throw unauthorized()
  const p = findVisibleProject(ctx, projectPath)
  if (!p.issues_enabled) throw notFound('Project')
  return p
}

/** Guests set labels, assignees and milestone only when they create an issue; non-members of a public project never. */
const mayCreateWithMetadata = (ctx: WebContext, p: ProjectView) => effectiveProjectLevel(ctx, p) >= GUEST

async function newIssueForm(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView, f: IssuableFields, extra: { preview?: boolean; error?: string } = {}) {
  await sendIssuableForm(ctx, req, res, p, f, {
    heading: 'New issue', action: `${projectUrl(ctx, p)}/-/issues`, submit: 'Create issue', metadata: mayCreateWithMetadata(ctx, p), confidentiality: true, ...extra,
  }, projectHeader(ctx, p, 'issues'))
}

export async function newIssuePage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  const p = issuesProject(ctx, projectPath)
  await newIssueForm(ctx, req, res, p, { ...EMPTY, title: text(req.query['issue[title]'], 255), description: text(req.query['issue[description]']) })
}

export async function createIssuePost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = issuesProject(ctx, projectPath)
  const f = fieldsFromForm(form)
  if (checked(form.preview)) return newIssueForm(ctx, req, res, p, f, { preview: true })
  let issue: IssueRow
  try {
    const metadata = mayCreateWithMetadata(ctx, p) ? metadataInput(ctx, f) : {}
    issue = createIssue(ctx, p, { title: f.title, description: f.description || undefined, confidential: f.confidential, ...metadata })
  } catch (err) {
    if (!isFormError(err)) throw err
    return newIssueForm(ctx, req, res, p, f, { error: errorText(err) })
  }
  await afterCommit(ctx.app)
  redirect(res, `${projectUrl(ctx, p)}/-/issues/${issue.iid}`)
}

/** Authors and assignees edit title, description and state; Reporters and up everything (the service checks again). */
function editable(ctx: WebContext, p: ProjectView, iid: number) {
  if (!ctx.user) throw unauthorized()
  const issue = findVisibleIssue(ctx, p, iid)
  const b = bundle(ctx, issue, false)
  const admin = canAdminIssues(ctx, p)
  if (!admin && issue.author_id !== ctx.user.id && !b.assignees.some((a) => a.id === ctx.user!.id)) throw notFound('Issue')
  return { issue, b, admin }
}

const stateField = (state: string) => html`<p><label>State <select name="state_event" id="issuable-state">
<option value="">${state === 'opened' ? 'Open' : 'Closed'} (unchanged)</option><option value="${state === 'opened' ? 'close' : 'reopen'}">${state === 'opened' ? 'Close' : 'Reopen'}</option></select></label></p>`

async function editIssueForm(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView, e: ReturnType<typeof editable>, f: IssuableFields, extra: { preview?: boolean; error?: string } = {}) {
  const url = `${projectUrl(ctx, p)}/-/issues/${e.issue.iid}`
  await sendIssuableForm(ctx, req, res, p, f, {
    heading: `Edit issue #${e.issue.iid}`, action: `${url}/edit`, submit: 'Save changes', metadata: e.admin, confidentiality: e.admin,
    after: stateField(e.issue.state), ...extra,
  }, html`${projectHeader(ctx, p, 'issues')}<p><a href="${url}">← #${e.issue.iid}</a></p>`)
}

export async function editIssuePage(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, iid: number) {
  const p = findVisibleProject(ctx, projectPath)
  const e = editable(ctx, p, iid)
  await editIssueForm(ctx, req, res, p, e, {
    title: e.issue.title, description: e.issue.description ?? '', labels: e.b.labels.join(', '), assignees: e.b.assignees.map((a) => a.username).join(', '),
    milestoneId: String(e.issue.milestone_id ?? 0), confidential: e.issue.confidential === 1,
  })
}

export async function editIssuePost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, iid: number) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = findVisibleProject(ctx, projectPath)
  const e = editable(ctx, p, iid)
  const f = fieldsFromForm(form)
  if (checked(form.preview)) return editIssueForm(ctx, req, res, p, e, f, { preview: true })
  const state = text(form.state_event)
  try {
    editIssue(ctx, p, e.issue, {
      title: f.title, description: f.description, state_event: state === 'close' || state === 'reopen' ? state : undefined,
      ...(e.admin ? { ...metadataInput(ctx, f), confidential: f.confidential } : {}),
    })
  } catch (err) {
    if (!isFormError(err)) throw err
    return editIssueForm(ctx, req, res, p, e, f, { error: errorText(err) })
  }
  await afterCommit(ctx.app)
  redirect(res, `${projectUrl(ctx, p)}/-/issues/${e.issue.iid}`)
}

/** A reply in one of the issue's threads (an individual comment becomes a thread), as the discussions API replies. */
export async function issueReplyPost(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, iid: number, discussionId: string) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const p = findVisibleProject(ctx, projectPath)
  const issue = findVisibleIssue(ctx, p, iid)
  const note = text(form.note)
  if (note.trim()) replyTo(ctx, p, { kind: 'Issue', row: issue }, discussionId, { body: note })
  await afterCommit(ctx.app)
  redirect(res, `${projectUrl(ctx, p)}/-/issues/${issue.iid}#discussion_${discussionId}`)
}

export const routes: PageRoute[] = [
  ...formRoutes('issues', { blank: newIssuePage, create: createIssuePost, edit: editIssuePage, update: editIssuePost }),
  {
    method: 'POST', path: underProject(String.raw`issues\/(?<iid>\d{1,9})\/discussions\/(?<discussion>[0-9a-f]{40})\/reply`),
    page: (ctx, req, res) => issueReplyPost(ctx, req, res, req.params.project, Number(req.params.iid), req.params.discussion),
  },
]
