// Promoting a project milestone to its group's (Milestones::PromoteService): the same-titled milestones of the group's
// projects are merged into the new group milestone. Group milestone CRUD itself is milestones.ts with a group parent.
import { CollabError, forbidden } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { REPORTER, requireGroupLevel, requireProjectLevel } from '../../policy.js'
import { transaction } from '../../store/db.js'
import { projectIdsInNamespaces } from '../../store/group-admin.js'
import * as store from '../../store/milestones.js'
import { findNamespaceById } from '../../store/namespaces.js'
import type { ProjectView } from '../../store/projects.js'
import { insertMilestoneIn } from './milestones.js'

const promotionFailed = (why: string) => {
  const message = `Promotion failed - ${why}`
  return new CollabError('MILESTONE_PROMOTE_FAILED', message, { status: 400 })
}

/**
 * Needs admin_milestone (Reporter) on the project and on its group; a project in a user's namespace has no group to
 * authorize against, so GitLab answers 403 there. A group milestone with the same title already makes it fail.
 */
export function promoteMilestone(ctx: RequestContext, p: ProjectView, m: store.MilestoneRow) {
  requireProjectLevel(ctx, p, REPORTER)
  const group = p.ns_kind === 'group' ? findNamespaceById(ctx.app.db, p.namespace_id) : undefined
  if (!group) throw forbidden()
  requireGroupLevel(ctx, group, REPORTER)
  const db = ctx.app.db
  transaction(db, () => {
    if (store.findGroupMilestoneByTitle(db, group.id, m.title)) throw promotionFailed('Title already being used for another group or project milestone.')
    const merged = store.milestoneIdsTitled(db, projectIdsInNamespaces(db, [group.id]), m.title)
    const at = nowIso(ctx)
    const id = insertMilestoneIn(ctx, group, {
      title: m.title, description: m.description, due_date: m.due_date, start_date: m.start_date, created_at: at, updated_at: at,
    })
    store.mergeMilestonesInto(db, merged, id)
  })
}
