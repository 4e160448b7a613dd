// Project and group milestones: CRUD by global id, close and activate, the milestones an issuable may take, and the
// promotion of a project milestone to its group's (Milestones::PromoteService).
import { CollabError, forbidden, notFound, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { REPORTER, requireGroupLevel, requireProjectLevel } from '../../policy.js'
import { projectIdsInNamespaces } from '../../store/group-admin.js'
import { allocateIid } from '../../store/issues.js'
import * as store from '../../store/milestones.js'
import { findNamespaceById } from '../../store/namespaces.js'
import type { ProjectView } from '../../store/projects.js'
import { transaction } from '../../store/db.js'
import { emitHookEvent } from '../hooks/webhook-events.js'
import { inheritedScope, isProject, ownScope, requireOwnerLevel, type Owner, type OwnerScope } from '../projects/scope.js'

export type { MilestoneRow } from '../../store/milestones.js'

/** A milestone's owner: a project, or a group. */
export type MilestoneParent = Owner

export function findMilestone(ctx: RequestContext, parent: MilestoneParent, id: number): store.MilestoneRow {
  const m = store.findMilestoneInScope(ctx.app.db, ownScope(parent), id)
  if (!m) throw notFound('Milestone')
  return m
}

export interface MilestoneListInput { state?: string; iids?: number[]; title?: string; search?: string; include_parent_milestones?: boolean }

export const listMilestones = (ctx: RequestContext, parent: MilestoneParent, f: MilestoneListInput) =>
  store.listMilestones(ctx.app.db, inheritedScope(ctx, parent, f.include_parent_milestones === true), { ...f, limit: ctx.page.limit, offset: ctx.page.offset })

/**
 * GitLab's Milestone#uniqueness_of_title reaches one level across: a project's milestone may not share its title with
 * its group's milestones, nor a group's with its projects'.
 */
function neighbours(ctx: RequestContext, parent: MilestoneParent): OwnerScope {
  if (isProject(parent)) return { projectIds: [], groupIds: parent.ns_kind === 'group' ? [parent.namespace_id] : [] }
  return { projectIds: projectIdsInNamespaces(ctx.app.db, [parent.id]), groupIds: [] }
}

function checkTitle(ctx: RequestContext, parent: MilestoneParent, title: string, exceptId?: number): string {
  const t = title.trim()
  if (!t) throw validationFailed({ title: ["can't be blank"] })
  const db = ctx.app.db
  const other = store.findMilestoneTitled(db, ownScope(parent), t)
  if (other && other.id !== exceptId) throw validationFailed({ title: ['has already been taken'] })
  const scope = neighbours(ctx, parent)
  if ((scope.projectIds.length || scope.groupIds.length) && store.listMilestones(db, scope, { title: t, limit: 1, offset: 0 }).rows.length) {
    throw validationFailed({ title: ['already being used for another group or project milestone.'] })
  }
  return t
}

export interface MilestoneInput { title?: string; description?: string; due_date?: string; start_date?: string; state_event?: 'close' | 'activate' }

/** Inserts without checks; the caller holds a transaction when it needs one around more writes (promotion). */
function insertMilestoneIn(ctx: RequestContext, parent: MilestoneParent, fields: Omit<store.NewMilestone, 'iid' | 'project_id' | 'group_id'>): number {
  const db = ctx.app.db
  return isProject(parent)
    ? store.insertMilestone(db, { ...fields, project_id: parent.id, iid: allocateIid(db, parent.id, 'milestones') })
    : store.insertMilestone(db, { ...fields, group_id: parent.id, iid: store.allocateGroupIid(db, parent.id, 'milestones') })
}

export function createMilestone(ctx: RequestContext, parent: MilestoneParent, input: MilestoneInput & { title: string }) {
  requireOwnerLevel(ctx, parent, REPORTER)
  const title = checkTitle(ctx, parent, input.title)
  const db = ctx.app.db
  const at = nowIso(ctx)
  const id = transaction(db, () => insertMilestoneIn(ctx, parent, {
    title, description: input.description ?? '', due_date: input.due_date || null, start_date: input.start_date || null, created_at: at, updated_at: at,
  }))
  announce(ctx, parent, 'create', id, title)
  return findMilestone(ctx, parent, id)
}

export function editMilestone(ctx: RequestContext, parent: MilestoneParent, m: store.MilestoneRow, input: MilestoneInput) {
  requireOwnerLevel(ctx, parent, REPORTER)
  const at = nowIso(ctx)
  const patch: Parameters<typeof store.updateMilestone>[2] = { updated_at: at }
  if (input.title !== undefined) patch.title = checkTitle(ctx, parent, input.title, m.id)
  if (input.description !== undefined) patch.description = input.description
  if (input.due_date !== undefined) patch.due_date = input.due_date || null
  if (input.start_date !== undefined) patch.start_date = input.start_date || null
  if (input.state_event === 'close' && m.state !== 'closed') Object.assign(patch, { state: 'closed', closed_at: at })
  if (input.state_event === 'activate' && m.state !== 'active') Object.assign(patch, { state: 'active', closed_at: null })
  store.updateMilestone(ctx.app.db, m.id, patch)
  if (patch.state) announce(ctx, parent, patch.state === 'closed' ? 'close' : 'reopen', m.id, patch.title ?? m.title)
  return findMilestone(ctx, parent, m.id)
}

export function deleteMilestone(ctx: RequestContext, parent: MilestoneParent, m: store.MilestoneRow) {
  requireOwnerLevel(ctx, parent, REPORTER)
  store.deleteMilestoneRow(ctx.app.db, m.id)
  announce(ctx, parent, 'destroy', m.id, m.title)
}

/** The events feed records a project's milestones (GitLab's open, close, reopen and destroy_milestone). */
function announce(ctx: RequestContext, parent: MilestoneParent, action: 'create' | 'close' | 'reopen' | 'destroy', milestoneId: number, title: string) {
  if (isProject(parent)) emitHookEvent(ctx.app, { kind: 'milestone', action, projectId: parent.id, userId: ctx.user!.id, milestoneId, title })
}

/** A milestone an issuable of the project may take: the project's own or an ancestor group's (Issuable#milestone_available?). */
export const usableMilestone = (ctx: RequestContext, p: ProjectView, id: number) => store.findMilestoneInScope(ctx.app.db, inheritedScope(ctx, p), id)

/** The milestone titled so that the project's issuables may take: its own first, else the nearest ancestor group's. */
export function usableMilestoneByTitle(ctx: RequestContext, p: ProjectView, title: string): store.MilestoneRow | undefined {
  const scope = inheritedScope(ctx, p)
  const { rows } = store.listMilestones(ctx.app.db, scope, { title, limit: scope.groupIds.length + 1, offset: 0 })
  const rank = (m: store.MilestoneRow) => (m.project_id !== null ? -1 : scope.groupIds.indexOf(m.group_id!))
  return rows.sort((a, b) => rank(a) - rank(b))[0]
}

/**
 * How a system note names a milestone: `%<iid>` for a project's, `%"title"` for a group's (SystemNotes' change_milestone
 * uses the name format for group milestones, whose iid means nothing in the project).
 */
export function milestoneReference(ctx: RequestContext, id: number): string {
  const m = store.milestonesByIds(ctx.app.db, [id]).get(id)!
  return m.group_id !== null ? `%"${m.title}"` : `%${m.iid}`
}

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
    if (store.findMilestoneTitled(db, ownScope(group), m.title)) throw promotionFailed('Title already being used for another group or project milestone.')
    const merged = store.milestoneIdsTitled(db, projectIdsInNamespaces(db, [group.id]), m.title)
    const at = nowIso(ctx)
    const id = insertMilestoneIn(ctx, group, {
      title: m.title, description: m.description, due_date: m.due_date, start_date: m.start_date, created_at: at, updated_at: at,
    })
    store.mergeMilestonesInto(db, merged, id)
  })
}
