// CI/CD variables of a project or a group: Maintainers only; GitLab's model rules for keys and masked values (instance
// variables take them too, ci-group-variables.ts); one key per environment scope.
import { CollabError, notFound, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { MAINTAINER, requireProjectLevel } from '../../policy.js'
import * as store from '../../store/ci-variables.js'
import { transaction } from '../../store/db.js'
import type { ProjectView } from '../../store/projects.js'
import { findVisibleProject } from '../projects/projects.js'
import { isProject, type Owner } from '../projects/scope.js'

export interface VariableInput {
  key?: string
  value?: string
  variable_type?: 'env_var' | 'file'
  protected?: boolean
  masked?: boolean
  raw?: boolean
  environment_scope?: string
  description?: string | null
}

const KEY = /^[a-zA-Z0-9_]+$/
// Maskable: a masked value must be one line of at least 8 characters; unless raw, only these (Base64 and a few more).
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/
const MASKABLE_RAW = /^\S{8,}$/
const MAX_VALUE = 10_000

/** The project, for a Maintainer (403 below that; 404 to who may not see it). */
export function variablesProject(ctx: RequestContext, id: string): ProjectView {
  const project = findVisibleProject(ctx, id)
  requireProjectLevel(ctx, project, MAINTAINER)
  return project
}

/** The store's owner of a project's or a group's variables. */
const ownerOf = (o: Owner): store.VariableOwner => ({ kind: isProject(o) ? 'project' : 'group', id: o.id })

export const listVariables = (ctx: RequestContext, o: Owner) => store.listVariables(ctx.app.db, ownerOf(o), ctx.page.limit, ctx.page.offset)

/** The one row of a key (project, group or instance); several without a filter is GitLab's 409. */
export function oneVariable<T>(rows: T[], missing: () => CollabError): T {
  if (!rows.length) throw missing()
  if (rows.length > 1) {
    throw new CollabError('VARIABLE_AMBIGUOUS', "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'", { status: 409 })
  }
  return rows[0]
}

/** The one variable of a key, in the scope asked for. */
export const findVariable = (ctx: RequestContext, o: Owner, key: string, scope?: string): store.VariableRow =>
  oneVariable(store.findVariables(ctx.app.db, ownerOf(o), key, scope), () => notFound(isProject(o) ? 'Variable' : 'GroupVariable'))

function checkFields(ctx: RequestContext, o: Owner, v: store.CiVariableFields, exceptId?: number) {
  checkVariable(v, store.findVariables(ctx.app.db, ownerOf(o), v.key, v.environment_scope).some((r) => r.id !== exceptId))
}

/** GitLab's model rules for a variable of any level; `taken` when another one has its key (and scope). */
export function checkVariable(v: store.CiVariableFields, taken: boolean) {
  const errors: Record<string, string[]> = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  if (v.key === '') add('key', "can't be blank")
  else if (v.key.length > 255) add('key', 'is too long (maximum is 255 characters)')
  else if (!KEY.test(v.key)) add('key', "can contain only letters, digits and '_'.")
  if (v.value.length > MAX_VALUE) add('value', `is too long (maximum is ${MAX_VALUE} characters)`)
  if (v.masked && !(v.raw ? MASKABLE_RAW : MASKABLE).test(v.value)) add('value', 'is invalid')
  if (taken) add('key', `(${v.key}) has already been taken`)
  if (Object.keys(errors).length) throw validationFailed(errors)
}

const flag = (v: boolean | undefined, old: number) => (v === undefined ? old : v ? 1 : 0)

/** The input over the old row's fields (GitLab's defaults for a new one). */
export function mergeVariable(input: VariableInput, old?: store.CiVariableFields): store.CiVariableFields {
  return {
    key: input.key ?? old?.key ?? '',
    value: input.value ?? old?.value ?? '',
    variable_type: input.variable_type ?? old?.variable_type ?? 'env_var',
    protected: flag(input.protected, old?.protected ?? 0),
    masked: flag(input.masked, old?.masked ?? 0),
    raw: flag(input.raw, old?.raw ?? 0),
    environment_scope: input.environment_scope || old?.environment_scope || '*',
    description: input.description !== undefined ? input.description : old?.description ?? null,
  }
}

export function createVariable(ctx: RequestContext, o: Owner, input: VariableInput) {
  const fields = mergeVariable(input)
  return transaction(ctx.app.db, () => {
    checkFields(ctx, o, fields)
    return store.insertVariable(ctx.app.db, ownerOf(o), fields)
  })
}

export function updateVariable(ctx: RequestContext, o: Owner, key: string, scope: string | undefined, input: VariableInput) {
  return transaction(ctx.app.db, () => {
    const old = findVariable(ctx, o, key, scope)
    // The key in the path names the variable; it is not renamed by the body.
    const fields = mergeVariable({ ...input, key: old.key }, old)
    checkFields(ctx, o, fields, old.id)
    return store.updateVariable(ctx.app.db, ownerOf(o), old.id, fields)
  })
}

export function deleteVariable(ctx: RequestContext, o: Owner, key: string, scope: string | undefined) {
  transaction(ctx.app.db, () => store.deleteVariable(ctx.app.db, ownerOf(o), findVariable(ctx, o, key, scope).id))
}
