// retry, cancel, delete: one request on one pipeline (the id, or the latest pipeline of the current branch).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onPipeline, resolvePipeline } from './shared.js'

export interface ActionOptions { project?: string; pipeline?: string; ref?: string; yes: boolean; json: boolean }

interface Verb {
  name: 'retry' | 'cancel' | 'delete'
  description: string
  endpoint: 'retryPipeline' | 'cancelPipeline' | 'deletePipeline'
  done: string
}

export const VERBS: Verb[] = [
  { name: 'retry', description: 'Retry the failed and canceled jobs of a pipeline', endpoint: 'retryPipeline', done: 'Retried pipeline' },
  { name: 'cancel', description: "Cancel a pipeline's running and waiting jobs", endpoint: 'cancelPipeline', done: 'Canceled pipeline' },
  { name: 'delete', description: 'Delete a pipeline with its jobs, logs and artifacts (owners)', endpoint: 'deletePipeline', done: 'Deleted pipeline' },
]

export function register(group: Command, rt: Runtime): void {
  for (const verb of VERBS) {
    const command = withJson(onPipeline(group.command(verb.name).description(verb.description)))
    if (verb.name === 'delete') command.option('-y, --yes', 'do not ask for confirmation')
    command.action((pipeline: string | undefined, flags: OptionValues) =>
      rt.invoke(command, (options: ActionOptions, deps: Deps) => runVerb(verb, options, deps), toOptions(pipeline, flags)))
  }
}

export const toOptions = (pipeline: string | undefined, flags: OptionValues): ActionOptions => ({
  project: flags.project, pipeline, ref: flags.ref, yes: flags.yes === true, json: flags.json === true,
})

export async function runVerb(verb: Verb, options: ActionOptions, deps: Deps): Promise<void> {
  const { api, project, id } = await resolvePipeline(deps, options)
  if (verb.name === 'delete' && !options.yes && !(await deps.prompter.confirm(`Delete pipeline #${id} of ${project}?`, '--yes'))) {
    throw failure('nothing was deleted')
  }
  const response = await api.call(route(verb.endpoint, { id: project, pipeline_id: id }))
  reportWrite(deps.io, options.json, response, `${verb.done} #${id} in ${project}`)
}
