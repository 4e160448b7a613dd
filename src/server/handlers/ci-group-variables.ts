// Group CI/CD variables (/groups/:id/variables) and instance ones (/admin/ci/variables).
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentInstanceVariable } from '../present/ci-group-variables.js'
import { presentCiVariable } from '../present/ci-variables.js'
import * as vars from '../services/ci/index.js'

export const ciGroupVariableHandlers = {
  listGroupVariables: (input, ctx) => {
    const { rows, total } = vars.listGroupVariables(ctx, vars.variablesGroup(ctx, input.id))
    return { status: 200, body: rows.map(presentCiVariable), total }
  },
  getGroupVariable: (input, ctx) => {
    const group = vars.variablesGroup(ctx, input.id)
    return { status: 200, body: presentCiVariable(vars.findGroupVariable(ctx, group, input.key, input.filter?.environment_scope)) }
  },
  createGroupVariable: (input, ctx) => ({
    status: 201, body: presentCiVariable(vars.createGroupVariable(ctx, vars.variablesGroup(ctx, input.id), input)),
  }),
  updateGroupVariable: (input, ctx) => {
    const group = vars.variablesGroup(ctx, input.id)
    const { key, filter, ...fields } = input
    return { status: 200, body: presentCiVariable(vars.updateGroupVariable(ctx, group, key, filter?.environment_scope, fields)) }
  },
  deleteGroupVariable: (input, ctx) => {
    vars.deleteGroupVariable(ctx, vars.variablesGroup(ctx, input.id), input.key, input.filter?.environment_scope)
    return { status: 204 }
  },
  listInstanceVariables: (_input, ctx) => {
    const { rows, total } = vars.listInstanceVariables(ctx)
    return { status: 200, body: rows.map(presentInstanceVariable), total }
  },
  getInstanceVariable: (input, ctx) => ({ status: 200, body: presentInstanceVariable(vars.findInstanceVariable(ctx, input.key)) }),
  createInstanceVariable: (input, ctx) => ({ status: 201, body: presentInstanceVariable(vars.createInstanceVariable(ctx, input)) }),
  updateInstanceVariable: (input, ctx) => {
    const { key, ...fields } = input
    return { status: 200, body: presentInstanceVariable(vars.updateInstanceVariable(ctx, key, fields)) }
  },
  deleteInstanceVariable: (input, ctx) => {
    vars.deleteInstanceVariable(ctx, input.key)
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.ciGroupVariables>
