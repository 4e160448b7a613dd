// The rules of snippets: who reads which (ProjectSnippetPolicy and PersonalSnippetPolicy), who writes, the project's
// snippets feature, visibility levels the administrator allows, and every write in one transaction.
import { forbidden, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { GUEST, isAdmin, isExternalUser, isOpenTo, MAINTAINER, openVisibilities, projectLevel, REPORTER } from '../../policy.js'
import { transaction } from '../../store/db.js'
import { usersByIds } from '../../store/issues.js'
import { findUserAgentDetail, insertUserAgentDetail } from '../../store/noteables.js'
import type { ProjectView } from '../../store/projects.js'
import * as store from '../../store/snippets.js'
import { currentSettings, requireVisibilityAllowed } from '../instance/application-settings.js'
import type { Noteable } from '../issuables/discussion.js'
import { filesAfterUpdate, filesToCreate, paramError, type ContentInput } from './snippet-files.js'

export type { SnippetRow } from '../../store/snippets.js'
type Visibility = store.SnippetVisibility

const snippetNotFound = () => notFound('Snippet')

/** GitLab's check_snippets_enabled: a project with the feature off answers 403 to every snippet route. */
export function requireSnippetsEnabled(p: ProjectView) {
  if (!p.snippets_enabled) throw forbidden()
}

/** Public to all, internal to signed-in users but external ones, private to the author, project members (project snippets) and admins. */
export function canReadSnippet(ctx: RequestContext, s: store.SnippetRow, p?: ProjectView): boolean {
  if (s.visibility === 'public') return true
  if (!ctx.user) return false
  if (isOpenTo(ctx, s.visibility) || isAdmin(ctx) || s.author_id === ctx.user.id) return true
  return p !== undefined && projectLevel(ctx, p) >= GUEST
}

/** A project's snippet the caller may read; otherwise 404, as if it did not exist. */
export function findProjectSnippet(ctx: RequestContext, p: ProjectView, id: number): store.SnippetRow & { project_id: number } {
  requireSnippetsEnabled(p)
  const s = store.findSnippet(ctx.app.db, id)
  if (!s || s.project_id !== p.id || !canReadSnippet(ctx, s, p)) throw snippetNotFound()
  return { ...s, project_id: p.id }
}

export function findPersonalSnippet(ctx: RequestContext, id: number): store.SnippetRow {
  const s = store.findSnippet(ctx.app.db, id)
  if (!s || s.project_id !== null || !canReadSnippet(ctx, s)) throw snippetNotFound()
  return s
}

/** A project snippet as a noteable of the shared discussion layer (personal snippets take no notes). */
export const noteableOf = (s: store.SnippetRow & { project_id: number }): Noteable =>
  ({ kind: 'Snippet', row: { ...s, iid: 0, time_estimate: 0, total_time_spent: 0 } })

/** Visibilities a caller reads without being the author: members and admins all, others those open to them. */
function readableLevels(ctx: RequestContext, p?: ProjectView): Visibility[] | undefined {
  if (isAdmin(ctx) || (p && projectLevel(ctx, p) >= GUEST)) return undefined
  return [...openVisibilities(ctx)]
}

const page = (ctx: RequestContext) => ({ limit: ctx.page.limit, offset: ctx.page.offset })

export function listProjectSnippets(ctx: RequestContext, p: ProjectView) {
  requireSnippetsEnabled(p)
  return store.listSnippets(ctx.app.db, { project: p.id, visibilities: readableLevels(ctx, p), orAuthor: ctx.user?.id, ...page(ctx) })
}

export const listOwnSnippets = (ctx: RequestContext) =>
  store.listSnippets(ctx.app.db, { personal: true, author: ctx.user!.id, ...page(ctx) })

export const listPublicSnippets = (ctx: RequestContext) =>
  store.listSnippets(ctx.app.db, { personal: true, visibilities: ['public'], ...page(ctx) })

/** Administrators see every snippet; others every personal and project snippet they may read. */
export function listAllSnippets(ctx: RequestContext) {
  if (isAdmin(ctx)) return store.listSnippets(ctx.app.db, page(ctx))
  return store.listReadableSnippets(ctx.app.db, ctx.user!.id, openVisibilities(ctx), page(ctx))
}

export interface CreateSnippetInput extends ContentInput { title: string; description?: string; visibility?: Visibility }
export interface UpdateSnippetInput extends ContentInput { title?: string; description?: string; visibility?: Visibility }

function requireTitle(title: string | undefined) {
  if (title !== undefined && !title.trim()) throw paramError('title is empty')
}

/** Reporters and up create project snippets; an archived project takes none. */
function requireMayCreate(ctx: RequestContext, p: ProjectView) {
  if (p.archived) throw forbidden()
  if (!isAdmin(ctx) && projectLevel(ctx, p) < REPORTER) throw forbidden()
}

export function createSnippet(ctx: RequestContext, p: ProjectView | null, input: CreateSnippetInput): store.SnippetRow {
  if (p) {
    requireSnippetsEnabled(p)
    requireMayCreate(ctx, p)
  } else if (ctx.user && isExternalUser(ctx.user)) {
    // GitLab's GlobalPolicy: external users publish nothing of their own, only inside projects they are members of.
    throw forbidden()
  }
  requireTitle(input.title)
  const files = filesToCreate(input)
  const visibility = input.visibility ?? (currentSettings(ctx.app).default_snippet_visibility as Visibility)
  requireVisibilityAllowed(ctx, visibility)
  const db = ctx.app.db
  const now = nowIso(ctx)
  return transaction(db, () => {
    const s = store.insertSnippet(db, {
      project_id: p?.id ?? null, author_id: ctx.user!.id, title: input.title, description: input.description ?? null,
      visibility, created_at: now, updated_at: now,
    }, files)
    insertUserAgentDetail(db, s.id, ctx.client?.userAgent ?? '', ctx.client?.ip ?? '')
    return s
  })
}

/** The author changes a snippet; on a project snippet so do Maintainers (GitLab's admin_snippet); admins always. */
function requireMayChange(ctx: RequestContext, s: store.SnippetRow, p: ProjectView | null) {
  if (p?.archived) throw forbidden()
  if (isAdmin(ctx)) return
  if (p && projectLevel(ctx, p) >= MAINTAINER) return
  if (s.author_id === ctx.user!.id && (!p || projectLevel(ctx, p) >= GUEST)) return
  throw forbidden()
}

const UPDATE_FIELDS = 'content, description, files, file_name, title, visibility'

export function updateSnippet(ctx: RequestContext, p: ProjectView | null, s: store.SnippetRow, input: UpdateSnippetInput): store.SnippetRow {
  requireMayChange(ctx, s, p)
  const given = [input.content ?? input.code, input.description, input.files, input.file_name, input.title, input.visibility]
  if (given.every((v) => v === undefined)) throw paramError(`${UPDATE_FIELDS} are missing, at least one parameter must be provided`)
  requireTitle(input.title)
  const db = ctx.app.db
  const files = filesAfterUpdate(store.filesOf(db, s.id), input)
  if (input.visibility !== undefined && input.visibility !== s.visibility) requireVisibilityAllowed(ctx, input.visibility)
  const patch: store.SnippetPatch = { updated_at: nowIso(ctx) }
  if (input.title !== undefined) patch.title = input.title
  if (input.description !== undefined) patch.description = input.description
  if (input.visibility !== undefined) patch.visibility = input.visibility
  transaction(db, () => {
    store.updateSnippet(db, s.id, patch)
    if (files) store.setFiles(db, s.id, files)
  })
  return store.findSnippet(db, s.id)!
}

export function deleteSnippet(ctx: RequestContext, p: ProjectView | null, s: store.SnippetRow) {
  requireMayChange(ctx, s, p)
  transaction(ctx.app.db, () => store.deleteSnippet(ctx.app.db, s.id))
}

/** The first file's content (`raw`), or the file at `path`. */
export function rawFile(ctx: RequestContext, s: store.SnippetRow, path?: string): store.SnippetFile {
  const files = store.filesOf(ctx.app.db, s.id)
  const file = path === undefined ? files[0] : files.find((f) => f.path === path)
  if (!file) throw notFound('File')
  return file
}

export const filesOf = (ctx: RequestContext, s: store.SnippetRow) => store.filesOf(ctx.app.db, s.id)
export const fileNamesOf = (ctx: RequestContext, rows: store.SnippetRow[]) => store.fileNamesOf(ctx.app.db, rows.map((r) => r.id))

/** The authors of a page of snippets, by id, read once. */
export const authorsOf = (ctx: RequestContext, rows: store.SnippetRow[]) => usersByIds(ctx.app.db, rows.map((s) => s.author_id))

export function userAgentDetail(ctx: RequestContext, s: store.SnippetRow) {
  const detail = findUserAgentDetail(ctx.app.db, s.id)
  if (!detail) throw notFound('UserAgentDetail')
  return { user_agent: detail.user_agent, ip_address: detail.ip_address, spamfilter_submitted: detail.submitted === 1 }
}
