// Completion values for a job argument: the ids and names of the jobs of the current branch's latest pipeline.
import type { Candidate, ValueSource } from '../complete.js'

/**
 * `41  build: compile (success)` and `compile  #41 build (success)`. Also the function the completion scripts'
 * `collab __complete` reaches through the job verbs' argument; `--pipeline` and `--ref` typed so far are honoured.
 */
export const jobCandidates: ValueSource = async (context) => {
  const [{ createDeps }, { latestPipelineId, parseId, pipelineJobs }] = await Promise.all([
    import('../../src/cli/factory.js'), import('../pipeline/shared.js'),
  ])
  const deps = createDeps(context.io, { host: context.flags.host, token: context.flags.token })
  const { api, ref } = await deps.project(context.flags.project)
  const pipeline = context.flags.pipeline ? parseId(context.flags.pipeline, 'pipeline') : await latestPipelineId(deps, api, ref, context.flags.ref)
  const jobs = await pipelineJobs(api, ref, pipeline)
  return [
    ...jobs.map((j): Candidate => [String(j.id), `${j.stage}: ${j.name} (${j.status})`]),
    ...jobs.map((j): Candidate => [j.name, `#${j.id} ${j.stage} (${j.status})`]),
  ]
}
