// Releases (GitLab's Releases::CreateService, UpdateService, DestroyService, ReleasesFinder and ReleasePolicy).
import { conflict, CollabError, forbidden, unauthorized } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { readCommitInfo, readTagInfo } from '../../git/read.js'
import { canReadCode, canReadGroup, canReadProject } from '../../policy.js'
import type { ReleaseView } from '../../present/releases.js'
import { transaction } from '../../store/db.js'
import { groupTree, projectIdsInNamespaces } from '../../store/group-admin.js'
import { findNamespaceById, type NamespaceRow } from '../../store/namespaces.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import * as store from '../../store/releases.js'
import type { ReleaseRow } from '../../store/releases.js'
import { findUserById } from '../../store/users.js'
import { renderMarkdown } from '../markup/markdown.js'
import { usableMilestone, usableMilestoneByTitle } from '../issuables/milestones.js'
import { canCreateTag, TAG_REFUSALS } from '../repository/protected-tags.js'
import { createTagAt } from '../repository/refs.js'
import { findRelease, mayWriteRelease, mayWriteReleases, requireReadRelease, requireReadReleaseCode } from './release-access.js'
import { checkNewLinks, insertLinks, type LinkInput } from './release-links.js'
import { emitReleaseHook, releaseHookPayload } from './release-hooks.js'
import { gitdirOf } from '../repository/repository.js'

/** Releases::BaseService#milestones: titles (the project's, or an ancestor group's) or ids; unknown ones answer 400. */
function resolveMilestones(ctx: RequestContext, p: ProjectView, input: { milestones?: string[]; milestone_ids?: number[] }): number[] | undefined {
  if (input.milestones !== undefined && input.milestone_ids !== undefined) {
    throw new CollabError('MUTUALLY_EXCLUSIVE', 'milestones, milestone_ids Cannot specify milestones and milestone_ids at the same time',
      { status: 400, body: { error: 'milestones, milestone_ids Cannot specify milestones and milestone_ids at the same time' } })
  }
  if (input.milestones !== undefined) {
    const titles = [...new Set(input.milestones)]
    const found = titles.map((t) => [t, usableMilestoneByTitle(ctx, p, t)] as const)
    const missing = found.filter(([, m]) => !m).map(([t]) => t)
    if (missing.length) throw new CollabError('MILESTONE_NOT_FOUND', `Milestone(s) not found: ${missing.join(', ')}`, { status: 400 })
    return found.map(([, m]) => m!.id)
  }
  if (input.milestone_ids !== undefined) {
    const ids = [...new Set(input.milestone_ids)]
    const missing = ids.filter((id) => !usableMilestone(ctx, p, id))
    if (missing.length) throw new CollabError('MILESTONE_NOT_FOUND', `Milestone id(s) not found: ${missing.join(', ')}`, { status: 400 })
    return ids
  }
  return undefined
}

/** Grape's DateTime: any time a client sends, kept as an ISO instant. */
const instant = (s: string) => new Date(s).toISOString()

/** What each release shows besides its row, read in a few queries for a whole page. */
export async function releaseViews(ctx: RequestContext, p: ProjectView, rows: ReleaseRow[], opts: { html?: boolean } = {}): Promise<ReleaseView[]> {
  const db = ctx.app.db
  const ids = rows.map((r) => r.id)
  const links = store.linksOf(db, ids)
  const milestones = store.milestonesOf(db, ids)
  const stats = store.issueStatsOf(db, [...new Set([...milestones.values()].flat().map((m) => m.id))])
  const code = canReadCode(ctx, p)
  const now = nowIso(ctx)
  const out: ReleaseView[] = []
  for (const row of rows) {
    out.push({
      row, project: p, author: findUserById(db, row.author_id),
      commit: code && row.sha ? await readCommitInfo(gitdirOf(ctx, p), row.sha).catch(() => null) : null,
      links: links.get(row.id)!,
      milestones: milestones.get(row.id)!.map((m) => ({ milestone: m, stats: stats.get(m.id)! })),
      canReadCode: code, canReadMilestones: canReadProject(ctx, p), canUpdate: mayWriteRelease(ctx, p, row.tag),
      now, today: now.slice(0, 10),
      descriptionHtml: opts.html ? await renderMarkdown(ctx.app, row.description ?? '', { baseUrl: ctx.baseUrl, projectPath: `${p.ns_full_path}/${p.path}` }) : undefined,
    })
  }
  return out
}

export interface ReleaseListInput { order_by?: store.ReleaseOrder; sort?: 'asc' | 'desc'; include_html_description?: boolean; updated_before?: string; updated_after?: string }

export async function listReleases(ctx: RequestContext, p: ProjectView, f: ReleaseListInput) {
  requireReadRelease(ctx, p)
  const { rows, total } = store.listReleases(ctx.app.db, p.id, {
    orderBy: f.order_by ?? 'released_at', sort: f.sort ?? 'desc', limit: ctx.page.limit, offset: ctx.page.offset,
    updatedBefore: f.updated_before && instant(f.updated_before), updatedAfter: f.updated_after && instant(f.updated_after),
  })
  return { views: await releaseViews(ctx, p, rows, { html: f.include_html_description }), total }
}

export async function getRelease(ctx: RequestContext, p: ProjectView, tag: string, html?: boolean): Promise<ReleaseView> {
  requireReadReleaseCode(ctx, p)
  const r = findRelease(ctx, p, tag)
  if (!r) throw new CollabError('NOT_FOUND', '404 Not Found', { status: 404 })
  return (await releaseViews(ctx, p, [r], { html }))[0]
}

/** The release `permalink/latest` leads to: the newest by released_at. */
export function latestRelease(ctx: RequestContext, p: ProjectView): ReleaseRow {
  requireReadReleaseCode(ctx, p)
  const [latest] = store.listReleases(ctx.app.db, p.id, { orderBy: 'released_at', sort: 'desc', limit: 1, offset: 0 }).rows
  if (!latest) throw new CollabError('NOT_FOUND', '404 Not Found', { status: 404 })
  return latest
}

/** `…/releases/:tag/downloads/*path` (API and web): the release, read as GitLab's authorize_read_code! wants. */
export function releaseForDownload(ctx: RequestContext, p: ProjectView, tag: string): ReleaseRow {
  requireReadReleaseCode(ctx, p)
  const r = findRelease(ctx, p, tag)
  if (!r) throw new CollabError('NOT_FOUND', '404 Not Found', { status: 404 })
  return r
}

export interface CreateInput {
  tag_name: string; tag_message?: string; name?: string; description?: string; ref?: string; released_at?: string
  milestones?: string[]; milestone_ids?: number[]; assets?: { links?: LinkInput[] }
}

/** Releases::CreateService: the tag is found, or made from `ref`; then the release with its links and milestones. */
export async function createRelease(ctx: RequestContext, p: ProjectView, input: CreateInput): Promise<ReleaseView> {
  if (!ctx.user) throw unauthorized()
  if (!mayWriteReleases(ctx, p)) throw forbidden()
  if (!canCreateTag(ctx, p, input.tag_name)) throw new CollabError('PROTECTED_TAG', TAG_REFUSALS.create, { status: 403 })
  if (findRelease(ctx, p, input.tag_name)) throw conflict('Release already exists')
  const milestoneIds = resolveMilestones(ctx, p, input) ?? []
  const links = checkNewLinks(input.assets?.links ?? [])
  let tag = await readTagInfo(gitdirOf(ctx, p), input.tag_name)
  if (!tag) {
    if (!input.ref) throw new CollabError('REF_NOT_SPECIFIED', 'Ref is not specified', { status: 422 })
    tag = (await createTagAt(ctx, p, { tag_name: input.tag_name, ref: input.ref, message: input.tag_message })).tag
  }
  const db = ctx.app.db
  const at = nowIso(ctx)
  const id = transaction(db, () => {
    if (store.findReleaseByTag(db, p.id, input.tag_name)) throw conflict('Release already exists')
    const releaseId = store.insertRelease(db, {
      project_id: p.id, tag: input.tag_name, name: input.name ?? input.tag_name, description: input.description ?? null, author_id: ctx.user!.id,
      sha: tag.commit, released_at: input.released_at ? instant(input.released_at) : at, created_at: at, updated_at: at,
    })
    insertLinks(ctx, releaseId, links)
    store.setMilestones(db, releaseId, milestoneIds)
    return releaseId
  })
  const [view] = await releaseViews(ctx, p, [store.findReleaseById(db, id)!])
  emitReleaseHook(ctx, p, view, 'create')
  return view
}

export interface UpdateInput { name?: string; description?: string; released_at?: string; milestones?: string[]; milestone_ids?: number[] }

/** The API authorizes against the release it found: none at all is a 403, as for a release the caller may not change. */
function writableRelease(ctx: RequestContext, p: ProjectView, tag: string): ReleaseRow {
  if (!ctx.user) throw unauthorized()
  const r = findRelease(ctx, p, tag)
  if (!r || !mayWriteRelease(ctx, p, r.tag)) throw forbidden()
  return r
}

export async function updateRelease(ctx: RequestContext, p: ProjectView, tag: string, input: UpdateInput): Promise<ReleaseView> {
  const r = writableRelease(ctx, p, tag)
  if (!(await readTagInfo(gitdirOf(ctx, p), r.tag))) throw new CollabError('TAG_NOT_FOUND', 'Tag does not exist', { status: 404 })
  const given = (['name', 'description', 'released_at', 'milestones', 'milestone_ids'] as const).filter((k) => input[k] !== undefined)
  if (!given.length) throw new CollabError('EMPTY_PARAMS', 'params is empty', { status: 400 })
  const milestoneIds = resolveMilestones(ctx, p, input)
  const db = ctx.app.db
  transaction(db, () => {
    store.updateRelease(db, r.id, {
      name: input.name, description: input.description, released_at: input.released_at && instant(input.released_at), updated_at: nowIso(ctx),
    })
    if (milestoneIds) store.setMilestones(db, r.id, milestoneIds)
  })
  const [view] = await releaseViews(ctx, p, [store.findReleaseById(db, r.id)!])
  emitReleaseHook(ctx, p, view, 'update')
  return view
}

async function destroy(ctx: RequestContext, p: ProjectView, r: ReleaseRow): Promise<ReleaseView> {
  // Shown as it was: the answer and the hook describe the release that is gone.
  const [view] = await releaseViews(ctx, p, [r])
  store.deleteRelease(ctx.app.db, r.id)
  emitReleaseHook(ctx, p, view, 'delete')
  return view
}

/** Releases::DestroyService: the release goes, its tag stays. */
export const deleteRelease = (ctx: RequestContext, p: ProjectView, tag: string) => destroy(ctx, p, writableRelease(ctx, p, tag))

/** Tags::DestroyService: a deleted tag takes its release with it. */
export async function deleteReleaseOfTag(ctx: RequestContext, p: ProjectView, tag: string) {
  const r = findRelease(ctx, p, tag)
  if (r) await destroy(ctx, p, r)
}

/** The Release Hook of the project's newest release, as its creation sent it (a hook test's sample); null without one. */
export async function newestReleasePayload(ctx: RequestContext, p: ProjectView) {
  const [row] = store.listReleases(ctx.app.db, p.id, { orderBy: 'released_at', sort: 'desc', limit: 1, offset: 0 }).rows
  if (!row) return null
  const [view] = await releaseViews(ctx, p, [row])
  return releaseHookPayload(ctx, p, view, 'create')
}

/** The tags API's `release` of each tag: its notes, for those who may read releases. */
export const releasesOfTags = (ctx: RequestContext, p: ProjectView) =>
  canReadProject(ctx, p) ? store.releasesOfTags(ctx.app.db, p.id) : new Map<string, ReleaseRow>()

/** GroupReleasesFinder: the releases of the projects in the group and its subgroups that the caller may see. */
export async function listGroupReleases(ctx: RequestContext, g: NamespaceRow, f: { sort?: 'asc' | 'desc' }) {
  const db = ctx.app.db
  const groups = groupTree(db, g.id).filter((id) => { const ns = findNamespaceById(db, id); return ns !== undefined && canReadGroup(ctx, ns) })
  const projects = projectIdsInNamespaces(db, groups).map((id) => findProjectById(db, id)).filter((p): p is ProjectView => p !== undefined && canReadProject(ctx, p))
  const { rows, total } = store.listReleasesOfProjects(db, projects.map((p) => p.id), { sort: f.sort ?? 'desc', limit: ctx.page.limit, offset: ctx.page.offset })
  const byId = new Map(projects.map((p) => [p.id, p]))
  const views: ReleaseView[] = []
  for (const row of rows) views.push(...(await releaseViews(ctx, byId.get(row.project_id)!, [row])))
  return { views, total }
}
