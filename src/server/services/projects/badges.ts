// Badges of projects and groups: placeholders (GitLab's Badge::PLACEHOLDERS), validation, and who may change them.
import { CollabError, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { readBranch } from '../../git/read.js'
import { repositoryDir } from '../../git/repository.js'
import { MAINTAINER, OWNER, requireGroupLevel, requireProjectLevel } from '../../policy.js'
import * as store from '../../store/badges.js'
import type { NamespaceRow } from '../../store/namespaces.js'
import type { ProjectView } from '../../store/projects.js'

export type BadgeSource = { kind: 'project'; project: ProjectView } | { kind: 'group'; group: NamespaceRow }

const PLACEHOLDER = /%\{(project_path|project_title|project_name|project_id|project_namespace|group_name|gitlab_server|gitlab_pages_domain|default_branch|commit_sha|latest_tag)\}/g

/** The values a project gives its badges' placeholders; a group's badges are shown unrendered outside a project. */
export async function placeholderValues(ctx: RequestContext, source: BadgeSource): Promise<Record<string, string> | null> {
  if (source.kind !== 'project') return null
  const p = source.project
  const head = p.default_branch ? await readBranch(repositoryDir(ctx.app.layout.repositories, p.id), p.default_branch) : null
  return {
    project_path: `${p.ns_full_path}/${p.path}`, project_title: p.name, project_name: p.path, project_id: String(p.id),
    project_namespace: p.ns_full_path, group_name: p.ns_kind === 'group' ? p.ns_full_path : '',
    gitlab_server: new URL(ctx.baseUrl).host, gitlab_pages_domain: '', default_branch: p.default_branch ?? '',
    commit_sha: head?.oid ?? '', latest_tag: '',
  }
}

export const render = (url: string, values: Record<string, string> | null) =>
  values ? url.replace(PLACEHOLDER, (_m, key: string) => values[key] ?? '') : url

/** Absolute http(s) URLs, placeholders allowed anywhere (they are checked as if filled in). */
function checkUrls(input: { link_url?: string; image_url?: string }) {
  const errors: Record<string, string[]> = {}
  for (const field of ['link_url', 'image_url'] as const) {
    const value = input[field]
    if (value === undefined) continue
    let ok = false
    try { ok = ['http:', 'https:'].includes(new URL(value.replace(PLACEHOLDER, 'x')).protocol) } catch { ok = false }
    if (!ok) errors[field] = ['must be a valid URL']
  }
  if (Object.keys(errors).length) throw validationFailed(errors)
}

function requireAdmin(ctx: RequestContext, source: BadgeSource) {
  if (source.kind === 'project') requireProjectLevel(ctx, source.project, MAINTAINER)
  else requireGroupLevel(ctx, source.group, OWNER)
}

const groupIdsOf = (ctx: RequestContext, source: BadgeSource) => {
  const groupId = source.kind === 'group' ? source.group.id : source.project.ns_kind === 'group' ? source.project.namespace_id : null
  return groupId === null ? [] : store.ancestorGroupIds(ctx.app.db, groupId)
}

export const listBadges = (ctx: RequestContext, source: BadgeSource, name?: string) => store.listBadges(ctx.app.db, {
  projectId: source.kind === 'project' ? source.project.id : undefined, groupIds: groupIdsOf(ctx, source), name,
  limit: ctx.page.limit, offset: ctx.page.offset,
})

/** Badges inherited from groups are readable through a project, as ActiveRecord's find over Project#badges. */
export function findBadge(ctx: RequestContext, source: BadgeSource, id: number) {
  const row = store.findBadge(ctx.app.db, id)
  const mine = row && (source.kind === 'project' && row.project_id === source.project.id || (row.group_id !== null && groupIdsOf(ctx, source).includes(row.group_id)))
  // An ActiveRecord miss: GitLab's lowercase "Not found".
  if (!row || !mine) throw new CollabError('BADGE_NOT_FOUND', '404 Not found', { status: 404 })
  return row
}

export interface BadgeInput { link_url: string; image_url: string; name?: string }

export function addBadge(ctx: RequestContext, source: BadgeSource, input: BadgeInput) {
  requireAdmin(ctx, source)
  checkUrls(input)
  const id = store.insertBadge(ctx.app.db, {
    project_id: source.kind === 'project' ? source.project.id : null, group_id: source.kind === 'group' ? source.group.id : null,
    name: input.name ?? null, link_url: input.link_url, image_url: input.image_url, created_at: nowIso(ctx),
  })
  return store.findBadge(ctx.app.db, id)!
}

export function editBadge(ctx: RequestContext, source: BadgeSource, id: number, input: Partial<BadgeInput>) {
  requireAdmin(ctx, source)
  const row = findBadge(ctx, source, id)
  checkUrls(input)
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
  store.updateBadge(ctx.app.db, row.id, patch)
  return store.findBadge(ctx.app.db, row.id)!
}

export function removeBadge(ctx: RequestContext, source: BadgeSource, id: number) {
  requireAdmin(ctx, source)
  const row = findBadge(ctx, source, id)
  if (source.kind === 'project' && row.group_id !== null) {
    throw new CollabError('GROUP_BADGE', 'To delete a Group badge please use the Group endpoint', { status: 403 })
  }
  store.deleteBadge(ctx.app.db, row.id)
}

export function previewBadge(ctx: RequestContext, source: BadgeSource, input: BadgeInput) {
  requireAdmin(ctx, source)
  checkUrls(input)
  return { name: null, link_url: input.link_url, image_url: input.image_url }
}
