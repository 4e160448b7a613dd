// The Pipelines API: list, get, latest, create, retry, cancel, delete, variables and the (empty) test report.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { emptyTestReport, presentPipeline, presentPipelineBasic, presentPipelineVariable } from '../present/pipelines.js'
import * as pipelines from '../services/ci/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import type { PipelineRow } from '../store/pipelines.js'
import type { ProjectView } from '../store/projects.js'

const project = (ctx: RequestContext, id: string) => findVisibleProject(ctx, id)
const pathOf = (p: ProjectView) => `${p.ns_full_path}/${p.path}`

/** The full entity of the pipeline `get` finds or makes in the project `id`. */
async function answer(ctx: RequestContext, id: string, status: number, get: (p: ProjectView) => PipelineRow | Promise<PipelineRow>) {
  const p = project(ctx, id)
  const row = await get(p)
  return { status, body: presentPipeline(row, pathOf(p), ctx, pipelines.pipelineDetails(ctx, row)) }
}

export const pipelineHandlers = {
  listPipelines: (input, ctx) => {
    const p = project(ctx, input.id)
    const { rows, total } = pipelines.listPipelines(ctx, p, input)
    return { status: 200, body: rows.map((r) => presentPipelineBasic(r, pathOf(p), ctx)), total }
  },
  getLatestPipeline: (input, ctx) => answer(ctx, input.id, 200, (p) => pipelines.latestPipeline(ctx, p, input.ref)),
  getPipeline: (input, ctx) => answer(ctx, input.id, 200, (p) => pipelines.getPipeline(ctx, p, input.pipeline_id)),
  createPipeline: (input, ctx) => answer(ctx, input.id, 201, (p) => pipelines.createApiPipeline(ctx, p, input)),
  retryPipeline: (input, ctx) => answer(ctx, input.id, 201, (p) => pipelines.retryPipeline(ctx, p, input.pipeline_id)),
  cancelPipeline: (input, ctx) => answer(ctx, input.id, 200, (p) => pipelines.cancelPipeline(ctx, p, input.pipeline_id)),
  deletePipeline: async (input, ctx) => {
    await pipelines.remove(ctx, project(ctx, input.id), input.pipeline_id)
    return { status: 204 }
  },
  getPipelineVariables: (input, ctx) => {
    const p = project(ctx, input.id)
    return { status: 200, body: pipelines.variables(ctx, p, input.pipeline_id).map(presentPipelineVariable) }
  },
  getPipelineTestReport: (input, ctx) => {
    pipelines.getPipeline(ctx, project(ctx, input.id), input.pipeline_id)
    return { status: 200, body: emptyTestReport() }
  },
} satisfies Handlers<typeof contract.pipelines>
