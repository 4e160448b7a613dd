// A new project (`/projects/new`, posted to `/projects`): name, path, namespace, description, visibility and an
// initial README, through the projects service and its checks (namespace rights, limits, allowed visibilities).
import { type PageRoute } from '../page-routes.js'
import type { ServerResponse } from 'node:http'
import { unauthorized } from '../../../core/errors.js'
import { afterCommit } from '../../http/mount.js'
import type { RouteRequest } from '../../http/router.js'
import { listNamespaces } from '../../services/groups/index.js'
import { createProject } from '../../services/projects/index.js'
import { readForm, type WebContext } from '../context.js'
import { html } from '../html.js'
import { csrfField, document, redirect, sendHtml } from '../layout.js'
import { checked, errorText, isFormError, text } from './issuable-form.js'
import { projectUrl, refuseForm } from './parts.js'

interface Fields { name: string; path: string; namespaceId: string; description: string; visibility: string; readme: boolean }

const VISIBILITIES = [['private', 'Private'], ['internal', 'Internal'], ['public', 'Public']] as const

function sendForm(ctx: WebContext, req: RouteRequest, res: ServerResponse, f: Fields, error?: string) {
  const all = { ...ctx, page: { page: 1, perPage: 100, limit: 100, offset: 0 } }
  const namespaces = listNamespaces(all, {}).rows
  const body = html`<h1>New project</h1>${error ? html`<p class="flash" id="form-error">${error}</p>` : ''}
<form method="post" action="${ctx.baseUrl}/projects" id="new-project-form">${csrfField(ctx)}
<p><label>Project name<br><input name="name" id="project-name" value="${f.name}" required maxlength="255" size="60"></label></p>
<p><label>Project URL<br><select name="namespace_id" id="project-namespace">${namespaces.map((n) =>
    html`<option value="${n.id}"${String(n.id) === f.namespaceId ? html` selected` : ''}>${n.full_path}</option>`)}</select>
/ <input name="path" id="project-path" value="${f.path}" placeholder="From the name when left empty" maxlength="255"></label></p>
<p><label>Description<br><textarea name="description" id="project-description">${f.description}</textarea></label></p>
<fieldset><legend>Visibility</legend>${VISIBILITIES.map(([value, label]) =>
    html`<label><input type="radio" name="visibility" value="${value}"${f.visibility === value ? html` checked` : ''}> ${label}</label> `)}</fieldset>
<p><label><input type="checkbox" name="initialize_with_readme" value="1" id="project-readme"${f.readme ? html` checked` : ''}> Initialize the repository with a README</label></p>
<p><button type="submit" id="create-project">Create project</button></p></form>`
  sendHtml(req, res, error ? 422 : 200, document(ctx, 'New project', body))
}

export async function newProjectPage(ctx: WebContext, req: RouteRequest, res: ServerResponse) {
  if (!ctx.user) throw unauthorized()
  sendForm(ctx, req, res, { name: '', path: '', namespaceId: '', description: '', visibility: 'private', readme: true })
}

export async function createProjectPost(ctx: WebContext, req: RouteRequest, res: ServerResponse) {
  const form = await readForm(ctx, req)
  if (!form) return refuseForm(ctx, req, res)
  const f: Fields = {
    name: text(form.name, 255), path: text(form.path, 255), namespaceId: text(form.namespace_id, 12), description: text(form.description, 2000),
    visibility: text(form.visibility, 10), readme: checked(form.initialize_with_readme),
  }
  const visibility = VISIBILITIES.find(([v]) => v === f.visibility)?.[0]
  const namespace = Number(f.namespaceId)
  try {
    const p = await createProject(ctx, {
      name: f.name, path: f.path || undefined, namespace_id: Number.isSafeInteger(namespace) && namespace > 0 ? namespace : undefined,
      description: f.description || undefined, visibility, initialize_with_readme: f.readme,
    })
    await afterCommit(ctx.app)
    redirect(res, projectUrl(ctx, p))
  } catch (err) {
    if (!isFormError(err)) throw err
    sendForm(ctx, req, res, f, errorText(err))
  }
}

export const routes: PageRoute[] = [
  { method: 'GET', path: '/projects/new', page: newProjectPage },
  { method: 'POST', path: '/projects', page: createProjectPost },
]
