// Project CI/CD variables: /projects/:id/variables and /projects/:id/variables/:key.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentCiVariable } from '../present/ci-variables.js'
import * as vars from '../services/ci/index.js'

export const ciVariableHandlers = {
  listProjectVariables: (input, ctx) => {
    const project = vars.variablesProject(ctx, input.id)
    const { rows, total } = vars.listProjectVariables(ctx, project)
    return { status: 200, body: rows.map(presentCiVariable), total }
  },
  getProjectVariable: (input, ctx) => {
    const project = vars.variablesProject(ctx, input.id)
    return { status: 200, body: presentCiVariable(vars.findVariable(ctx, project, input.key, input.filter?.environment_scope)) }
  },
  createProjectVariable: (input, ctx) => ({
    status: 201, body: presentCiVariable(vars.createVariable(ctx, vars.variablesProject(ctx, input.id), input)),
  }),
  updateProjectVariable: (input, ctx) => {
    const project = vars.variablesProject(ctx, input.id)
    const { key, filter, ...fields } = input
    return { status: 200, body: presentCiVariable(vars.updateVariable(ctx, project, key, filter?.environment_scope, fields)) }
  },
  deleteProjectVariable: (input, ctx) => {
    vars.deleteVariable(ctx, vars.variablesProject(ctx, input.id), input.key, input.filter?.environment_scope)
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.ciVariables>
