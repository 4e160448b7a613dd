// Custom attributes on users, groups and projects; the endpoints are admin-only, so rules here are about existence.
import { notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import * as store from '../../store/custom-attributes.js'
import { findUserByIdOrUsername } from '../users/auth.js'
import { findVisibleGroup } from '../groups/groups.js'
import { findVisibleProject } from './projects.js'

export type Subject = store.Subject

function subjectId(ctx: RequestContext, subject: Subject, ref: string): number {
  if (subject === 'project') return findVisibleProject(ctx, ref).id
  if (subject === 'group') return findVisibleGroup(ctx, ref).id
  const user = findUserByIdOrUsername(ctx.app, ref)
  if (!user) throw notFound('User')
  return user.id
}

export const listAttributes = (ctx: RequestContext, subject: Subject, ref: string) => store.listAttributes(ctx.app.db, subject, subjectId(ctx, subject, ref))

export function getAttribute(ctx: RequestContext, subject: Subject, ref: string, key: string) {
  const found = store.findAttribute(ctx.app.db, subject, subjectId(ctx, subject, ref), key)
  if (!found) throw notFound('Custom Attribute')
  return found
}

export function setAttribute(ctx: RequestContext, subject: Subject, ref: string, key: string, value: string) {
  const id = subjectId(ctx, subject, ref)
  store.upsertAttribute(ctx.app.db, subject, id, key, value)
  return store.findAttribute(ctx.app.db, subject, id, key)!
}

export function deleteAttribute(ctx: RequestContext, subject: Subject, ref: string, key: string) {
  if (!store.deleteAttribute(ctx.app.db, subject, subjectId(ctx, subject, ref), key)) throw notFound('Custom Attribute')
}
