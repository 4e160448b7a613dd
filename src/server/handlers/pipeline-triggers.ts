// Pipeline trigger tokens (/projects/:id/triggers) and POST /projects/:id/trigger/pipeline.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentPipeline } from '../present/pipelines.js'
import { presentTrigger } from '../present/pipeline-triggers.js'
import { pipelineDetails } from '../services/ci/index.js'
import * as triggers from '../services/ci/index.js'
import type { TriggerRow } from '../store/ci-triggers.js'

async function triggered(ctx: RequestContext, input: { id: string } & triggers.TriggerInput) {
  const { id, ...fields } = input
  const { row, project } = await triggers.triggerPipeline(ctx, id, fields)
  return { status: 201, body: presentPipeline(row, `${project.ns_full_path}/${project.path}`, ctx, pipelineDetails(ctx, row)) }
}

const present = (ctx: RequestContext, row: TriggerRow) => presentTrigger(row, triggers.triggerOwner(ctx, row), ctx)

export const pipelineTriggerHandlers = {
  listProjectTriggers: (input, ctx) => {
    const { rows, total } = triggers.listTriggers(ctx, triggers.triggersProject(ctx, input.id))
    return { status: 200, body: rows.map((r) => present(ctx, r)), total }
  },
  getProjectTrigger: (input, ctx) =>
    ({ status: 200, body: present(ctx, triggers.findTrigger(ctx, triggers.triggersProject(ctx, input.id), input.trigger_id)) }),
  createProjectTrigger: (input, ctx) => {
    const { id, ...fields } = input
    return { status: 201, body: present(ctx, triggers.createTrigger(ctx, triggers.triggersProject(ctx, id), fields)) }
  },
  updateProjectTrigger: (input, ctx) => {
    const p = triggers.triggersProject(ctx, input.id)
    return { status: 200, body: present(ctx, triggers.updateTrigger(ctx, p, input.trigger_id, input.description)) }
  },
  deleteProjectTrigger: (input, ctx) => {
    triggers.deleteTrigger(ctx, triggers.triggersProject(ctx, input.id), input.trigger_id)
    return { status: 204 }
  },
  triggerPipeline: (input, ctx) => triggered(ctx, input),
  triggerPipelineOnRef: (input, ctx) => triggered(ctx, input),
} satisfies Handlers<typeof contract.pipelineTriggers>
