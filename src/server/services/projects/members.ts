// Members of projects and groups: who may add, change and remove whom.
import { conflict, forbidden, notFound, validationFailed } from '../../../core/errors.js'
import type { AppDeps, RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { effectiveGroupLevel, effectiveProjectLevel, isPersonalNamespaceHolder, requireCanManageMember } from '../../policy.js'
import * as store from '../../store/members.js'
import type { NamespaceRow } from '../../store/namespaces.js'
import type { ProjectView } from '../../store/projects.js'
import { findUserById } from '../../store/users.js'
import { transaction } from '../../store/db.js'
import { emitHookEvent } from '../hooks/webhook-events.js'

export type Target = { kind: 'project'; project: ProjectView } | { kind: 'group'; group: NamespaceRow }

export const sourceOf = (t: Target): store.MemberSource =>
  t.kind === 'project' ? { kind: 'project', id: t.project.id, namespaceId: t.project.namespace_id } : { kind: 'group', id: t.group.id }

const callerLevel = (ctx: RequestContext, t: Target) =>
  t.kind === 'project' ? effectiveProjectLevel(ctx, t.project) : effectiveGroupLevel(ctx, t.group)

export function listMembers(ctx: RequestContext, t: Target, inherited: boolean, f: { query?: string; user_ids?: number[] }) {
  return store.listMembers(ctx.app.db, sourceOf(t), inherited, { query: f.query, userIds: f.user_ids, limit: ctx.page.limit, offset: ctx.page.offset })
}

export function getMember(ctx: RequestContext, t: Target, userId: number, inherited: boolean) {
  const member = inherited
    ? store.listMembers(ctx.app.db, sourceOf(t), true, { userIds: [userId], limit: 1, offset: 0 }).rows[0]
    : store.findDirectMember(ctx.app.db, sourceOf(t), userId)
  if (!member) throw notFound('Member')
  return member
}

export function addMember(ctx: RequestContext, t: Target, input: { user_id: number; access_level: number; expires_at?: string }) {
  requireCanManageMember(ctx, callerLevel(ctx, t), [input.access_level])
  if (!findUserById(ctx.app.db, input.user_id)) throw notFound('User')
  const source = sourceOf(t)
  if (store.findDirectMember(ctx.app.db, source, input.user_id)) throw conflict('Member already exists')
  checkExpiry(ctx, input.expires_at)
  store.insertMember(ctx.app.db, source, { user_id: input.user_id, access_level: input.access_level, created_at: nowIso(ctx), expires_at: input.expires_at ?? null })
  if (t.kind === 'project') emitHookEvent(ctx.app, { kind: 'member', action: 'join', projectId: t.project.id, userId: input.user_id })
  return store.findDirectMember(ctx.app.db, source, input.user_id)!
}

export function editMember(ctx: RequestContext, t: Target, userId: number, input: { access_level: number; expires_at?: string }) {
  const source = sourceOf(t)
  const current = store.findDirectMember(ctx.app.db, source, userId)
  if (!current) throw notFound('Member')
  requireNotNamespaceHolder(t, userId)
  requireCanManageMember(ctx, callerLevel(ctx, t), [current.access_level, input.access_level])
  if (current.access_level === 50 && input.access_level < 50 && store.countOwners(ctx.app.db, source) === 1 && t.kind === 'group') {
    throw forbidden('A group must have at least one owner')
  }
  checkExpiry(ctx, input.expires_at)
  store.updateMember(ctx.app.db, source, userId, input.access_level, input.expires_at)
  return store.findDirectMember(ctx.app.db, source, userId)!
}

export function removeMember(ctx: RequestContext, t: Target, userId: number) {
  const source = sourceOf(t)
  const current = store.findDirectMember(ctx.app.db, source, userId)
  if (!current) throw notFound('Member')
  requireNotNamespaceHolder(t, userId)
  // Anyone may leave; removing others needs maintainer rights, and owners only go by an owner's hand.
  if (userId !== ctx.user!.id) requireCanManageMember(ctx, callerLevel(ctx, t), [current.access_level])
  if (current.access_level === 50 && t.kind === 'group' && store.countOwners(ctx.app.db, source) === 1) {
    throw forbidden('A group must have at least one owner')
  }
  store.deleteMember(ctx.app.db, source, userId)
  if (t.kind === 'project') emitHookEvent(ctx.app, { kind: 'member', action: 'leave', projectId: t.project.id, userId })
}

/** Removing or demoting the owner of a personal project would leave it to administrators only (GitLab's ProjectMemberPolicy). */
function requireNotNamespaceHolder(t: Target, userId: number) {
  if (t.kind === 'project' && isPersonalNamespaceHolder(t.project, userId)) throw forbidden()
}

function checkExpiry(ctx: RequestContext, expiresAt: string | undefined) {
  if (expiresAt && expiresAt < nowIso(ctx).slice(0, 10)) throw validationFailed({ expires_at: ['cannot be a date in the past'] })
}

const EXPIRY_EVERY_MS = 60 * 60 * 1000

/** GitLab's RemoveExpiredMembersWorker: a membership ends on its expiry date, and with it the access it gave. */
export function removeExpiredMembers(app: AppDeps): number {
  const today = app.clock.now().toISOString().slice(0, 10)
  const [removed, ended] = transaction(app.db, () => {
    const projectMembers = store.expiredProjectMembers(app.db, today)
    return [store.deleteExpiredMembers(app.db, today), projectMembers] as const
  })
  for (const m of ended) emitHookEvent(app, { kind: 'member', action: 'expire', projectId: m.project_id, userId: m.user_id })
  if (removed) app.log.info(`removed ${removed} expired membership${removed === 1 ? '' : 's'}`)
  return removed
}

/** Sweeps expired memberships when the server starts listening and every hour after; returns the stop function. */
export function scheduleMembershipExpiry(app: AppDeps, everyMs = EXPIRY_EVERY_MS): () => void {
  const tick = () => app.tasks.run('membership expiry', async () => { removeExpiredMembers(app) })
  const timer = setInterval(tick, everyMs)
  timer.unref()
  tick()
  return () => clearInterval(timer)
}
