// The group whose variables a Maintainer manages (ci-variables.ts holds a project's and a group's rules), and instance
// variables (administrators, checked by the mount) under the same validation, one per key.
import { notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { MAINTAINER, requireGroupLevel } from '../../policy.js'
import * as store from '../../store/ci-group-variables.js'
import { transaction } from '../../store/db.js'
import type { NamespaceRow } from '../../store/namespaces.js'
import { checkVariable, mergeVariable, type VariableInput } from './ci-variables.js'
import { findVisibleGroup } from '../groups/groups.js'

const instanceVariableNotFound = () => notFound('InstanceVariable')

/** The group, for its Maintainers and Owners (403 below that; 404 to who may not see it). */
export function variablesGroup(ctx: RequestContext, id: string): NamespaceRow {
  const group = findVisibleGroup(ctx, id)
  requireGroupLevel(ctx, group, MAINTAINER)
  return group
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
