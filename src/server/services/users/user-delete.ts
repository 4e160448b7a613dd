// Deleting users (DELETE /users/:id) and groups (DELETE /groups/:id), with their projects and repositories.
import { conflict, forbidden } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { transaction } from '../../store/db.js'
import { findNamespaceById, findUserNamespace } from '../../store/namespaces.js'
import { findProjectById } from '../../store/projects.js'
import * as groups from '../../store/group-admin.js'
import * as admin from '../../store/user-admin.js'
import { retireBots } from '../../store/resource-access-tokens.js'
import { removeAvatars } from '../markup/avatars.js'
import { deleteProject } from '../projects/projects.js'
import { findUserForAdmin, ghostUser } from './user-admin.js'
import { emitGroupSystemEvent, emitUserSystemEvent } from '../hooks/webhook-system-events.js'

/**
 * Projects go one at a time (each row, then its repositories, as DELETE /projects/:id does), then the namespaces in
 * one transaction. Done at once rather than in the background as GitLab's worker does, so the answer means it is gone.
 */
export async function deleteNamespaceTree(ctx: RequestContext, namespaceIds: number[]) {
  const db = ctx.app.db
  for (const id of groups.projectIdsInNamespaces(db, namespaceIds)) {
    const project = findProjectById(db, id)
    if (project) await deleteProject(ctx, project)
  }
  const removed = namespaceIds.map((id) => findNamespaceById(db, id)).filter((n) => n?.kind === 'group')
  transaction(db, () => {
    for (const id of namespaceIds) {
      retireBots(db, { kind: 'group', id })
      groups.deleteNamespaceRow(db, id)
    }
  })
  for (const g of removed) emitGroupSystemEvent(ctx.app, 'group_destroy', g!)
}

export const deleteGroupTree = (ctx: RequestContext, groupId: number) => deleteNamespaceTree(ctx, groups.groupTree(ctx.app.db, groupId))

/**
 * Without hard_delete, what the user wrote moves to the ghost user (GitLab's Users::MigrateRecordsToGhostUserService);
 * with it, it is removed, and so are the groups the user alone owns.
 */
export async function deleteUser(ctx: RequestContext, id: number, hardDelete: boolean) {
  const db = ctx.app.db
  const user = findUserForAdmin(ctx, id)
  // GitLab's UserPolicy never lets anyone destroy the ghost user: it holds everyone else's deleted contributions.
  if (admin.findGhostUser(db)?.id === user.id) throw forbidden()
  const soleOwned = admin.soleOwnedGroups(db, user.id)
  if (soleOwned.length && !hardDelete) throw conflict('User cannot be removed while is the sole-owner of a group')
  for (const groupId of soleOwned) await deleteGroupTree(ctx, groupId)
  // Personal projects go in both cases, as GitLab deletes the user's namespace with them.
  const personal = findUserNamespace(db, user.id)
  if (personal) await deleteNamespaceTree(ctx, [personal.id])
  transaction(db, () => {
    if (hardDelete) admin.removeContributions(db, user.id, () => ghostUser(ctx))
    else admin.moveContributions(db, user.id, ghostUser(ctx))
    admin.deleteUserRow(db, user.id)
  })
  await removeAvatars(ctx.app, user.id)
  emitUserSystemEvent(ctx.app, 'user_destroy', user)
}
