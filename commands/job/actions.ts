// retry, cancel, play, erase, keep: one request on one job; play takes variables for a manual job.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { Job } from '../pipeline/shared.js'
import { variables, type PipelineVariable } from '../pipeline/run.js'
import { onJob, resolveJob, type JobSelector } from './shared.js'

export interface ActionOptions extends JobSelector { job: string; variables: { key: string; value: string }[]; json: boolean }

interface Verb {
  name: 'retry' | 'cancel' | 'play' | 'erase' | 'keep'
  description: string
  endpoint: 'retryJob' | 'cancelJob' | 'playJob' | 'eraseJob' | 'keepJobArtifacts'
  done: string
}

export const VERBS: Verb[] = [
  { name: 'retry', description: 'Run a finished job again (a new job)', endpoint: 'retryJob', done: 'Retried job' },
  { name: 'cancel', description: 'Cancel a waiting or running job', endpoint: 'cancelJob', done: 'Canceled job' },
  { name: 'play', description: 'Start a manual job', endpoint: 'playJob', done: 'Started job' },
  { name: 'erase', description: "Erase a finished job's log and artifacts", endpoint: 'eraseJob', done: 'Erased job' },
  { name: 'keep', description: "Keep a job's artifacts from expiring", endpoint: 'keepJobArtifacts', done: 'Kept the artifacts of job' },
]

export function register(group: Command, rt: Runtime): void {
  for (const verb of VERBS) {
    const command = withJson(onJob(group.command(verb.name).description(verb.description)))
    if (verb.name === 'play') command.option('--variable <KEY=VALUE>', 'a variable for this run of the job (repeatable)', variables('env_var'))
    command.action((job: string, flags: OptionValues) =>
      rt.invoke(command, (options: ActionOptions, deps: Deps) => runVerb(verb, options, deps), toOptions(job, flags)))
  }
}

export const toOptions = (job: string, flags: OptionValues): ActionOptions => ({
  project: flags.project, job, pipeline: flags.pipeline, ref: flags.ref,
  variables: ((flags.variable ?? []) as PipelineVariable[]).map(({ key, value }) => ({ key, value })),
  json: flags.json === true,
})

export async function runVerb(verb: Verb, options: ActionOptions, deps: Deps): Promise<void> {
  const { api, project, id } = await resolveJob(deps, options)
  const json = options.variables.length > 0 ? { job_variables_attributes: options.variables } : undefined
  const response = await api.call(route(verb.endpoint, { id: project, job_id: id }), { json })
  // A retry answers the new job: its id is the one to follow.
  const job = parseJson<Job>(response)
  const suffix = verb.name === 'retry' && job.id !== id ? ` as #${job.id}` : ''
  reportWrite(deps.io, options.json, response, `${verb.done} #${id}${suffix} (${job.name}) in ${project}`)
}
