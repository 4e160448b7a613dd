// Groups and namespaces: create (top level or nested), visibility-aware reads and lists.
import { CollabError, forbidden, notFound, validationFailed } from '../../../core/errors.js'
import { parseIdOrPath } from '../../../contract/params.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canReadGroup, isAdmin, isExternal, MAINTAINER, openVisibilities, OWNER, requireGroupLevel } from '../../policy.js'
import { usersByIds } from '../../store/issues.js'
import { insertMember } from '../../store/members.js'
import * as store from '../../store/namespaces.js'
import { currentSettings, restrictedLevelMessage, visibilityAllowed } from '../instance/application-settings.js'
import { lessVisible, requireAllowedUnderParent } from '../projects/visibility.js'
import { isReservedTopLevel, isValidName, isValidPath, NAME_MESSAGE, PATH_MESSAGE } from '../projects/naming.js'
import { emitGroupSystemEvent } from '../hooks/webhook-system-events.js'
import { transaction } from '../../store/db.js'
import type { UserRow } from '../../store/users.js'

export function findVisibleGroup(ctx: RequestContext, ref: string | number): store.NamespaceRow {
  const key = parseIdOrPath(ref)
  const ns = 'id' in key ? store.findNamespaceById(ctx.app.db, key.id) : store.findNamespaceByPath(ctx.app.db, key.path)
  if (!ns || ns.kind !== 'group' || !canReadGroup(ctx, ns)) throw notFound('Group')
  return ns
}

export interface CreateGroupInput {
  name: string
  path: string
  description?: string
  visibility?: 'private' | 'internal' | 'public'
  parent_id?: number
  request_access_enabled?: boolean
  lfs_enabled?: boolean
  default_branch?: string
}

export function createGroup(ctx: RequestContext, input: CreateGroupInput): store.NamespaceRow {
  const db = ctx.app.db
  const errors: Record<string, string[]> = {}
  if (!input.name.trim() || !isValidName(input.name)) errors.name = [NAME_MESSAGE]
  if (!isValidPath(input.path)) errors.path = [PATH_MESSAGE]
  if (Object.keys(errors).length) throw validationFailed(errors)
  let parent: store.NamespaceRow | undefined
  if (input.parent_id !== undefined) {
    parent = store.findNamespaceById(db, input.parent_id)
    if (!parent || parent.kind !== 'group' || !canReadGroup(ctx, parent)) throw notFound('Parent Group')
    requireGroupLevel(ctx, parent, MAINTAINER)
  } else {
    if (!isAdmin(ctx) && (!ctx.user!.can_create_group || isExternal(ctx))) throw forbidden()
    if (isReservedTopLevel(input.path)) throw validationFailed({ path: ['is a reserved name'] })
  }
  const fullPath = parent ? `${parent.full_path}/${input.path}` : input.path
  // GitLab answers a taken path with 400 and the model errors in Ruby's inspect form (compat-notes §2).
  if (store.findNamespaceByPath(db, fullPath)) throw new CollabError('GROUP_PATH_TAKEN', 'Failed to save group {:path=>["has already been taken"]}', { status: 400 })
  const fallback = currentSettings(ctx.app).default_group_visibility
  const visibility = input.visibility ?? (parent ? lessVisible(fallback, parent.visibility) : fallback)
  if (parent) requireAllowedUnderParent(parent, visibility)
  if (!visibilityAllowed(ctx, visibility)) {
    throw new CollabError('VISIBILITY_RESTRICTED', `Failed to save group {:visibility_level=>["${restrictedLevelMessage(visibility)}"]}`, { status: 400 })
  }
  const at = nowIso(ctx)
  const group = transaction(db, () => {
    const id = store.insertNamespace(db, {
      kind: 'group', name: input.name, path: input.path, full_path: fullPath,
      full_name: parent ? `${parent.full_name} / ${input.name}` : input.name,
      parent_id: parent?.id ?? null, owner_id: null, description: input.description ?? '',
      visibility, created_at: at,
      request_access_enabled: input.request_access_enabled === false ? 0 : 1,
      lfs_enabled: input.lfs_enabled === false ? 0 : 1, default_branch: input.default_branch ?? null,
    })
    insertMember(db, { kind: 'group', id }, { user_id: ctx.user!.id, access_level: OWNER, created_at: at, expires_at: null })
    return store.findNamespaceById(db, id)!
  })
  emitGroupSystemEvent(ctx.app, 'group_create', group)
  return group
}

export function listGroups(ctx: RequestContext, f: Omit<store.GroupFilters, 'viewer' | 'admin' | 'open' | 'limit' | 'offset'>) {
  return store.listGroups(ctx.app.db, { ...f, viewer: ctx.user?.id ?? null, admin: isAdmin(ctx), open: openVisibilities(ctx), limit: ctx.page.limit, offset: ctx.page.offset })
}

export function listNamespaces(ctx: RequestContext, f: { search?: string; ownedOnly?: boolean }) {
  return store.listNamespacesFor(ctx.app.db, { ...f, viewer: ctx.user!.id, admin: isAdmin(ctx), limit: ctx.page.limit, offset: ctx.page.offset })
}

/**
 * GET /namespaces/:id/exists: whether `path` is taken among the namespaces of `parentId` (top level without it), and
 * then the first free path with a number after it, as GitLab's Namespace.clean_path suggests.
 */
export function namespaceExists(ctx: RequestContext, path: string, parentId?: number) {
  const parent = parentId === undefined ? null : store.findNamespaceById(ctx.app.db, parentId)
  if (parentId !== undefined && !parent) return { exists: false, suggests: [] }
  const taken = (p: string) => store.namespacePathTaken(ctx.app.db, parent ? `${parent.full_path}/${p}` : p)
  if (!taken(path)) return { exists: false, suggests: [] }
  let n = 1
  while (taken(`${path}${n}`)) n++
  return { exists: true, suggests: [`${path}${n}`] }
}

/** The owners of user namespaces, whose avatars those namespaces show (NamespaceBasic's avatar_url). */
export function namespaceOwners(ctx: RequestContext, rows: store.NamespaceRow[]): Map<number, UserRow> {
  return usersByIds(ctx.app.db, rows.flatMap((n) => (n.kind === 'user' && n.owner_id !== null ? [n.owner_id] : [])))
}

export function findNamespace(ctx: RequestContext, ref: string) {
  const key = parseIdOrPath(ref)
  const ns = 'id' in key ? store.findNamespaceById(ctx.app.db, key.id) : store.findNamespaceByPath(ctx.app.db, key.path)
  const mine = ns && (ns.kind === 'user' ? ns.owner_id === ctx.user!.id : isAdmin(ctx) || store.groupAccessLevel(ctx.app.db, ctx.user!.id, ns.id) > 0)
  if (!ns || !(mine || isAdmin(ctx))) throw notFound('Namespace')
  return ns
}
