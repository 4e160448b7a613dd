// Completion values for a job argument: the ids and names of the jobs of the current branch's latest pipeline.
import type { Candidate, ValueSource } from '../complete.js'

/**
 * `41  build: compile (success)` and `compile  #41 build (success)`, through the completion cache (60 s, per project
 * and per pipeline or branch). `--pipeline` and `--ref` typed so far are honoured; the lead wires this for `__complete`.
 */
export const jobCandidates: ValueSource = async (context) => {
  const { defaultRef, parseId, pipelineJobs } = await import('../pipeline/shared.js')
  const { route } = await import('../../src/client/paths.js')
  const pipeline = context.flags.pipeline ? parseId(context.flags.pipeline, 'pipeline') : undefined
  const ref = pipeline === undefined ? (context.flags.ref ?? (await defaultRef(context.io))) : undefined
  if (pipeline === undefined && ref === undefined) return []
  return context.cached(`jobs:${pipeline ?? `ref:${ref}`}`, async (api, project) => {
    const query = { ref, per_page: 1, order_by: 'id', sort: 'desc' }
    const id = pipeline ?? (await api.list(route('listPipelines', { id: project }), query)).items[0]?.id
    if (id === undefined) return []
    const jobs = await pipelineJobs(api, project, id)
    return [
      ...jobs.map((j): Candidate => [String(j.id), `${j.stage}: ${j.name} (${j.status})`]),
      ...jobs.map((j): Candidate => [j.name, `#${j.id} ${j.stage} (${j.status})`]),
    ]
  })
}
