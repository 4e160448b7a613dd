// Group CI/CD variables (Maintainers of the group) and instance ones (administrators, checked by the mount), under
// the project variables' rules: one validation, one key per environment scope (per instance for instance ones).
import { notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { MAINTAINER, requireGroupLevel } from '../../policy.js'
import * as store from '../../store/ci-group-variables.js'
import { transaction } from '../../store/db.js'
import type { NamespaceRow } from '../../store/namespaces.js'
import { checkVariable, mergeVariable, oneVariable, type VariableInput } from './ci-variables.js'
import { findVisibleGroup } from '../groups/groups.js'

const groupVariableNotFound = () => notFound('GroupVariable')
const instanceVariableNotFound = () => notFound('InstanceVariable')

/** The group, for its Maintainers and Owners (403 below that; 404 to who may not see it). */
export function variablesGroup(ctx: RequestContext, id: string): NamespaceRow {
  const group = findVisibleGroup(ctx, id)
  requireGroupLevel(ctx, group, MAINTAINER)
  return group
}

export const listGroupVariables = (ctx: RequestContext, group: NamespaceRow) =>
  store.listGroupVariables(ctx.app.db, group.id, ctx.page.limit, ctx.page.offset)

export const findGroupVariable = (ctx: RequestContext, group: NamespaceRow, key: string, scope?: string) =>
  oneVariable(store.findGroupVariables(ctx.app.db, group.id, key, scope), groupVariableNotFound)

const groupKeyTaken = (ctx: RequestContext, group: NamespaceRow, key: string, scope: string, exceptId?: number) =>
  store.findGroupVariables(ctx.app.db, group.id, key, scope).some((r) => r.id !== exceptId)

export function createGroupVariable(ctx: RequestContext, group: NamespaceRow, input: VariableInput) {
  const fields = mergeVariable(input)
  return transaction(ctx.app.db, () => {
    checkVariable(fields, groupKeyTaken(ctx, group, fields.key, fields.environment_scope))
    return store.insertGroupVariable(ctx.app.db, group.id, fields)
  })
}

export function updateGroupVariable(ctx: RequestContext, group: NamespaceRow, key: string, scope: string | undefined, input: VariableInput) {
  return transaction(ctx.app.db, () => {
    const old = findGroupVariable(ctx, group, key, scope)
    // The key in the path names the variable; the body does not rename it.
    const fields = mergeVariable({ ...input, key: old.key }, old)
    checkVariable(fields, groupKeyTaken(ctx, group, fields.key, fields.environment_scope, old.id))
    return store.updateGroupVariable(ctx.app.db, old.id, fields)
  })
}

export function deleteGroupVariable(ctx: RequestContext, group: NamespaceRow, key: string, scope: string | undefined) {
  transaction(ctx.app.db, () => store.deleteGroupVariable(ctx.app.db, findGroupVariable(ctx, group, key, scope).id))
}

export const listInstanceVariables = (ctx: RequestContext) => store.listInstanceVariables(ctx.app.db, ctx.page.limit, ctx.page.offset)

export function findInstanceVariable(ctx: RequestContext, key: string) {
  const row = store.findInstanceVariable(ctx.app.db, key)
  if (!row) throw instanceVariableNotFound()
  return row
}

/** Instance variables are checked as project ones of the `*` scope, which is what they apply to. */
function instanceFields(input: VariableInput, old?: store.InstanceVariableRow): store.InstanceVariableFields {
  const { environment_scope: _scope, ...fields } = mergeVariable({ ...input, environment_scope: undefined }, old && { ...old, environment_scope: '*' })
  return fields
}

export function createInstanceVariable(ctx: RequestContext, input: VariableInput) {
  const fields = instanceFields(input)
  return transaction(ctx.app.db, () => {
    checkVariable({ ...fields, environment_scope: '*' }, store.findInstanceVariable(ctx.app.db, fields.key) !== undefined)
    return store.insertInstanceVariable(ctx.app.db, fields)
  })
}

export function updateInstanceVariable(ctx: RequestContext, key: string, input: VariableInput) {
  return transaction(ctx.app.db, () => {
    const old = findInstanceVariable(ctx, key)
    const fields = instanceFields({ ...input, key: old.key }, old)
    checkVariable({ ...fields, environment_scope: '*' }, false)
    return store.updateInstanceVariable(ctx.app.db, old.id, fields)
  })
}

export function deleteInstanceVariable(ctx: RequestContext, key: string) {
  transaction(ctx.app.db, () => store.deleteInstanceVariable(ctx.app.db, findInstanceVariable(ctx, key).id))
}
