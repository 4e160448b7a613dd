// Group CI/CD variables (/groups/:id/variables) and instance ones (/admin/ci/variables).
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentInstanceVariable } from '../present/ci-group-variables.js'
import * as vars from '../services/ci/index.js'
import { variableVerbs } from './ci-variables.js'

const groupVariables = variableVerbs(vars.variablesGroup)

export const ciGroupVariableHandlers = {
  listGroupVariables: groupVariables.list,
  getGroupVariable: groupVariables.get,
  createGroupVariable: groupVariables.create,
  updateGroupVariable: groupVariables.update,
  deleteGroupVariable: groupVariables.delete,
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
