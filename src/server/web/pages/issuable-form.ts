// The fields issues and merge requests share on their new and edit pages (title, description with a server-rendered
// preview, labels, assignees, milestone), read back from a plain HTML form into the services' input.
import type { ServerResponse } from 'node:http'
import { CollabError } from '../../../core/errors.js'
import type { RouteRequest } from '../../http/router.js'
import { findUserByIdOrUsername } from '../../services/users/index.js'
import { listLabels } from '../../services/issuables/index.js'
import { listMilestones } from '../../services/issuables/index.js'
import type { ProjectView } from '../../store/projects.js'
import type { WebContext } from '../context.js'
import { underProject, type PageRoute } from '../page-routes.js'
import { html, type Html } from '../html.js'
import { csrfField, document, sendHtml } from '../layout.js'
import { markdown } from './issues.js'

/** What the form holds, as text: what the viewer typed comes back unchanged when the form is shown again. */
export interface IssuableFields {
  title: string
  description: string
  labels: string
  assignees: string
  milestoneId: string
  confidential: boolean
}

/** A form field as text; browsers send a textarea's line breaks as CRLF, stored as the API's clients send them (LF). */
export const text = (v: unknown, max = 1_000_000): string =>
  (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '').replace(/\r\n?/g, '\n').slice(0, max)

export const checked = (v: unknown) => v === '1' || v === 'on' || v === 'true'

export const commaList = (s: string) => [...new Set(s.split(',').map((x) => x.trim().replace(/^@/, '')).filter(Boolean))].slice(0, 50)

export function fieldsFromForm(form: Record<string, unknown>): IssuableFields {
  return {
    title: text(form.title, 255), description: text(form.description), labels: text(form.labels, 2000),
    assignees: text(form.assignees, 2000), milestoneId: text(form.milestone_id, 12), confidential: checked(form.confidential),
  }
}

/** The services' labels, assignee ids and milestone from the form; an unknown username is left out, as GitLab drops it. */
export function metadataInput(ctx: WebContext, f: IssuableFields) {
  const assignee_ids = commaList(f.assignees).flatMap((name) => findUserByIdOrUsername(ctx.app, name)?.id ?? [])
  const milestone = Number(f.milestoneId)
  return {
    labels: commaList(f.labels),
    assignee_ids,
    milestone_id: Number.isSafeInteger(milestone) && milestone >= 0 ? milestone : 0,
  }
}

const ALL = { page: 1, perPage: 100, limit: 100, offset: 0 }

function milestoneSelect(ctx: WebContext, p: ProjectView, selected: string): Html {
  const { rows } = listMilestones({ ...ctx, page: ALL }, p, { state: 'active', include_parent_milestones: true })
  return html`<select name="milestone_id" id="issuable-milestone"><option value="0">No milestone</option>
${rows.map((m) => html`<option value="${m.id}"${String(m.id) === selected ? html` selected` : ''}>${m.title}</option>`)}</select>`
}

function knownLabels(ctx: WebContext, p: ProjectView): Html {
  const { rows } = listLabels({ ...ctx, page: ALL }, p, {})
  return rows.length ? html`<span class="muted" id="known-labels">Labels: ${rows.map((l) => l.name).join(', ')}</span>` : html``
}

/** The error a refused write shows above its form: the service's own words, field by field for a model error. */
export function errorText(err: CollabError): string {
  const message = err.body.message
  if (message && typeof message === 'object' && !Array.isArray(message)) {
    return Object.entries(message).map(([field, why]) => `${field} ${Array.isArray(why) ? why.join(', ') : String(why)}`).join('; ')
  }
  return Array.isArray(message) ? message.join('; ') : err.message
}

/** A refusal a form can be shown again for (a blank title, a missing branch); anything else is the page's error. */
export const isFormError = (err: unknown): err is CollabError => err instanceof CollabError && [400, 409, 422].includes(err.status)

export interface FormPage {
  heading: string
  action: string
  submit: string
  /** Fields before and after the shared ones (branches, state), already escaped. */
  before?: Html
  after?: Html
  /** Below the form: the commits and diff of a new merge request. */
  below?: Html
  error?: string
  preview?: boolean
  /** Whether the viewer may set labels, assignees and milestone (Reporters and up on the target project). */
  metadata: boolean
  confidentiality?: boolean
}

/** The page of a new or edited issue or merge request; with `preview`, the description as it will render. */
export async function sendIssuableForm(ctx: WebContext, req: RouteRequest, res: ServerResponse, p: ProjectView, f: IssuableFields, page: FormPage, header: Html) {
  const preview = page.preview && f.description.trim()
    ? html`<div class="note markdown" id="description-preview"><p class="muted">Preview</p>${await markdown(ctx, p, f.description)}</div>` : ''
  const metadata = page.metadata ? html`<p><label>Labels <input name="labels" id="issuable-labels" value="${f.labels}" placeholder="Comma separated"></label> ${knownLabels(ctx, p)}</p>
<p><label>Assignees <input name="assignees" id="issuable-assignees" value="${f.assignees}" placeholder="Usernames, comma separated"></label></p>
<p><label>Milestone ${milestoneSelect(ctx, p, f.milestoneId)}</label></p>` : ''
  const body = html`${header}<h1>${page.heading}</h1>${page.error ? html`<p class="flash" id="form-error">${page.error}</p>` : ''}
<form method="post" action="${page.action}" id="issuable-form">${csrfField(ctx)}${page.before ?? ''}
<p><label>Title<br><input name="title" id="issuable-title" value="${f.title}" required maxlength="255" size="80"></label></p>
<p><label>Description<br><textarea name="description" id="issuable-description" placeholder="Markdown">${f.description}</textarea></label></p>
${preview}${metadata}
${page.confidentiality ? html`<p><label><input type="checkbox" name="confidential" value="1" id="issuable-confidential"${f.confidential ? html` checked` : ''}> This issue is confidential</label></p>` : ''}
${page.after ?? ''}<p class="bar"><button type="submit" id="issuable-submit">${page.submit}</button>
<button type="submit" name="preview" value="1" id="issuable-preview" formnovalidate>Preview description</button></p></form>${page.below ?? ''}`
  sendHtml(req, res, page.error ? 422 : 200, document(ctx, page.heading, body))
}

type ProjectForm = (ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string) => Promise<void>
type IssuableForm = (ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, iid: number) => Promise<void>

/** The new and edit forms of issues or merge requests, at GitLab's paths, and the POSTs they send. */
export function formRoutes(kind: 'issues' | 'merge_requests', forms: { blank: ProjectForm; create: ProjectForm; edit: IssuableForm; update: IssuableForm }): PageRoute[] {
  return [
    { method: 'GET', rest: new RegExp(`^${kind}/new$`), page: (ctx, req, res, project) => forms.blank(ctx, req, res, project) },
    { method: 'GET', rest: new RegExp(String.raw`^${kind}/(\d{1,9})/edit$`), page: (ctx, req, res, project, m) => forms.edit(ctx, req, res, project, Number(m[1])) },
    { method: 'POST', path: underProject(kind), page: (ctx, req, res) => forms.create(ctx, req, res, req.params.project) },
    {
      method: 'POST', path: underProject(String.raw`${kind}\/(?<iid>\d{1,9})\/edit`),
      page: (ctx, req, res) => forms.update(ctx, req, res, req.params.project, Number(req.params.iid)),
    },
  ]
}
