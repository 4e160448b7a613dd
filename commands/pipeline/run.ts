// collab pipeline run: start a pipeline on a branch or tag (POST /projects/:id/pipeline) with variables; --watch waits for it.
import type { Command, OptionValues } from 'commander'
import { InvalidArgumentError } from 'commander'
import { withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { defaultRef, EXIT_CODES_HELP, type Pipeline } from './shared.js'
import { run as view, seconds } from './view.js'

export interface PipelineVariable { key: string; value: string; variable_type: 'env_var' | 'file' }

export interface RunOptions {
  project?: string
  ref?: string
  variables: PipelineVariable[]
  watch: boolean
  interval: number
  json: boolean
}

/** `KEY=value`; the value may hold `=` and be empty. */
export function variable(value: string, type: PipelineVariable['variable_type'] = 'env_var'): PipelineVariable {
  const at = value.indexOf('=')
  if (at < 1) throw new InvalidArgumentError('expected KEY=VALUE')
  return { key: value.slice(0, at), value: value.slice(at + 1), variable_type: type }
}

/** A repeatable `--variable KEY=VALUE`, checked as commander parses it (a bad one is a usage error). */
export const variables = (type: PipelineVariable['variable_type']) =>
  (value: string, previous: PipelineVariable[] = []) => [...previous, variable(value, type)]

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('run')
    .alias('create')
    .description('Start a pipeline on a branch or tag')
    .option('-r, --ref <ref>', 'the branch or tag (default: the current branch)')
    .option('--variable <KEY=VALUE>', 'a variable for the pipeline (repeatable)', variables('env_var'))
    .option('--variable-file <KEY=VALUE>', 'a file-type variable: its value is written to a file whose path is $KEY (repeatable)', variables('file'))
    .option('-w, --watch', 'then show the pipeline until it finishes, and exit with its result')
    .option('--interval <seconds>', 'seconds between two polls with --watch', seconds, 3)
    .addHelpText('after', EXIT_CODES_HELP('pipeline (with --watch)'))
  withJson(withProject(withConnection(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): RunOptions => ({
  project: flags.project,
  ref: flags.ref,
  variables: [...(flags.variable ?? []), ...(flags.variableFile ?? [])],
  watch: flags.watch === true,
  interval: flags.interval,
  json: flags.json === true,
})

export async function run(options: RunOptions, deps: Deps): Promise<number> {
  const { api, ref: project } = await deps.project(options.project)
  const ref = options.ref ?? (await defaultRef(deps.io))
  if (ref === undefined) throw usageError('no --ref given, and the current directory is not on a git branch', 'pass --ref BRANCH')
  const json = { ref, variables: options.variables.length > 0 ? options.variables : undefined }
  const response = await api.call(route('createPipeline', { id: project }), { json })
  const pipeline = parseJson<Pipeline>(response)
  if (options.watch) {
    status(deps.io, `Created pipeline #${pipeline.id} on ${ref} in ${project}`)
    return view({ project: options.project, pipeline: String(pipeline.id), watch: true, interval: options.interval, web: false, json: options.json }, deps)
  }
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${pipeline.web_url}\n`)
  status(deps.io, `Created pipeline #${pipeline.id} on ${ref} in ${project}`)
  return 0
}
