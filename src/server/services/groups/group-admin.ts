// Groups beyond create and read: subgroups, transfer (Groups::TransferService) and deletion.
import { CollabError, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { canReadGroup, isAdmin, OWNER, requireGroupLevel } from '../../policy.js'
import { transaction } from '../../store/db.js'
import * as store from '../../store/group-admin.js'
import { findNamespaceById, findNamespaceByPath, type NamespaceRow } from '../../store/namespaces.js'
import { findVisibleGroup } from './groups.js'
import { isReservedTopLevel } from '../projects/naming.js'
import { deleteGroupTree } from '../users/user-delete.js'

const LEVELS = ['private', 'internal', 'public']

const transferFailed = (reason: string) => new CollabError('GROUP_TRANSFER_FAILED', `Transfer failed: ${reason}`, { status: 400 })

export async function transferGroup(ctx: RequestContext, ref: string, targetId: number | undefined) {
  const db = ctx.app.db
  const group = findVisibleGroup(ctx, ref)
  requireGroupLevel(ctx, group, OWNER)
  let parent: NamespaceRow | null = null
  if (targetId !== undefined) {
    const found = findNamespaceById(db, targetId)
    if (!found || found.kind !== 'group' || !canReadGroup(ctx, found)) throw notFound('Group')
    parent = found
  }
  checkTransfer(ctx, group, parent)
  transaction(db, () => {
    store.moveGroup(db, group, parent)
    if (parent) store.capVisibility(db, group.id, LEVELS.slice(0, LEVELS.indexOf(parent.visibility) + 1))
  })
  return findNamespaceById(db, group.id)!
}

function checkTransfer(ctx: RequestContext, group: NamespaceRow, parent: NamespaceRow | null) {
  const db = ctx.app.db
  if (!parent) {
    if (group.parent_id === null) throw transferFailed('Group is already a root group.')
    if (!isAdmin(ctx) && !ctx.user!.can_create_group) throw transferFailed("You don't have enough permissions.")
  } else {
    if (parent.id === group.parent_id) throw transferFailed('Group is already associated to the parent group.')
    if (store.groupTree(db, group.id).includes(parent.id)) throw transferFailed('Cannot transfer group to one of its subgroup.')
    try { requireGroupLevel(ctx, parent, OWNER) } catch { throw transferFailed("You don't have enough permissions.") }
  }
  const fullPath = parent ? `${parent.full_path}/${group.path}` : group.path
  const taken = findNamespaceByPath(db, fullPath) || (parent && store.projectPathTaken(db, parent.id, group.path))
  if (taken || (!parent && isReservedTopLevel(group.path))) {
    throw transferFailed('The parent group already has a subgroup or a project with the same path.')
  }
}

/** Done before the answer, not queued as GitLab's worker does: a 202 here means the group is already gone. */
export async function deleteGroup(ctx: RequestContext, ref: string) {
  const group = findVisibleGroup(ctx, ref)
  if (!isAdmin(ctx)) requireGroupLevel(ctx, group, OWNER)
  await deleteGroupTree(ctx, group.id)
}
