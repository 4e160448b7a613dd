// Project milestones: CRUD by global id, close and activate, and their issues.
import { notFound, validationFailed } from '../../core/errors.js'
import type { RequestContext } from '../context.js'
import { nowIso } from '../context.js'
import { REPORTER, requireProjectLevel } from '../policy.js'
import { allocateIid } from '../store/issues.js'
import * as store from '../store/milestones.js'
import type { ProjectView } from '../store/projects.js'
import { transaction } from '../store/db.js'

export type { MilestoneRow } from '../store/milestones.js'

export function findMilestone(ctx: RequestContext, p: ProjectView, id: number): store.MilestoneRow {
  const m = store.findMilestone(ctx.app.db, p.id, id)
  if (!m) throw notFound('Milestone')
  return m
}

export const listMilestones = (ctx: RequestContext, p: ProjectView, f: { state?: string; iids?: number[]; title?: string; search?: string }) =>
  store.listMilestones(ctx.app.db, p.id, { ...f, limit: ctx.page.limit, offset: ctx.page.offset })

function checkTitle(ctx: RequestContext, p: ProjectView, title: string, exceptId?: number): string {
  const t = title.trim()
  if (!t) throw validationFailed({ title: ["can't be blank"] })
  const other = store.findMilestoneByTitle(ctx.app.db, p.id, t)
  if (other && other.id !== exceptId) throw validationFailed({ title: ['has already been taken'] })
  return t
}

export interface MilestoneInput { title?: string; description?: string; due_date?: string; start_date?: string; state_event?: 'close' | 'activate' }

export function createMilestone(ctx: RequestContext, p: ProjectView, input: MilestoneInput & { title: string }) {
  requireProjectLevel(ctx, p, REPORTER)
  const title = checkTitle(ctx, p, input.title)
  const db = ctx.app.db
  const at = nowIso(ctx)
  const id = transaction(db, () => store.insertMilestone(db, {
    project_id: p.id, iid: allocateIid(db, p.id, 'milestones'), title, description: input.description ?? '',
    due_date: input.due_date || null, start_date: input.start_date || null, created_at: at, updated_at: at,
  }))
  return store.findMilestone(db, p.id, id)!
}

export function editMilestone(ctx: RequestContext, p: ProjectView, m: store.MilestoneRow, input: MilestoneInput) {
  requireProjectLevel(ctx, p, REPORTER)
  const at = nowIso(ctx)
  const patch: Parameters<typeof store.updateMilestone>[2] = { updated_at: at }
  if (input.title !== undefined) patch.title = checkTitle(ctx, p, input.title, m.id)
  if (input.description !== undefined) patch.description = input.description
  if (input.due_date !== undefined) patch.due_date = input.due_date || null
  if (input.start_date !== undefined) patch.start_date = input.start_date || null
  if (input.state_event === 'close' && m.state !== 'closed') Object.assign(patch, { state: 'closed', closed_at: at })
  if (input.state_event === 'activate' && m.state !== 'active') Object.assign(patch, { state: 'active', closed_at: null })
  store.updateMilestone(ctx.app.db, m.id, patch)
  return store.findMilestone(ctx.app.db, p.id, m.id)!
}

export function deleteMilestone(ctx: RequestContext, p: ProjectView, m: store.MilestoneRow) {
  requireProjectLevel(ctx, p, REPORTER)
  store.deleteMilestoneRow(ctx.app.db, m.id)
}
