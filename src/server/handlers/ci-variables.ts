// CI/CD variables of a project (/projects/:id/variables[/:key]), and the verbs a group's share (ci-group-variables.ts).
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentCiVariable } from '../present/ci-variables.js'
import * as vars from '../services/ci/index.js'
import type { Owner } from '../services/projects/index.js'

type Input = { id: string; key: string; filter?: { environment_scope?: string } }

/** The five verbs over an owner found (and authorized) by `ownerOf`. */
export function variableVerbs(ownerOf: (ctx: RequestContext, id: string) => Owner) {
  return {
    list: (input: { id: string }, ctx: RequestContext) => {
      const { rows, total } = vars.listVariables(ctx, ownerOf(ctx, input.id))
      return { status: 200, body: rows.map(presentCiVariable), total }
    },
    get: (input: Input, ctx: RequestContext) => {
      const owner = ownerOf(ctx, input.id)
      return { status: 200, body: presentCiVariable(vars.findVariable(ctx, owner, input.key, input.filter?.environment_scope)) }
    },
    create: (input: { id: string } & vars.VariableInput, ctx: RequestContext) => ({
      status: 201, body: presentCiVariable(vars.createVariable(ctx, ownerOf(ctx, input.id), input)),
    }),
    update: (input: Input & vars.VariableInput, ctx: RequestContext) => {
      const owner = ownerOf(ctx, input.id)
      const { key, filter, ...fields } = input
      return { status: 200, body: presentCiVariable(vars.updateVariable(ctx, owner, key, filter?.environment_scope, fields)) }
    },
    delete: (input: Input, ctx: RequestContext) => {
      vars.deleteVariable(ctx, ownerOf(ctx, input.id), input.key, input.filter?.environment_scope)
      return { status: 204 }
    },
  }
}

const projectVariables = variableVerbs(vars.variablesProject)

export const ciVariableHandlers = {
  listProjectVariables: projectVariables.list,
  getProjectVariable: projectVariables.get,
  createProjectVariable: projectVariables.create,
  updateProjectVariable: projectVariables.update,
  deleteProjectVariable: projectVariables.delete,
} satisfies Handlers<typeof contract.ciVariables>
