// collab project fork [project]: copy a project into your namespace or another one.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onProject, type Project } from './shared.js'

export interface ForkOptions {
  project?: string
  namespace?: string
  name?: string
  path?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('fork')
    .description('Fork a project')
    .option('--namespace <namespace>', 'target namespace, by id or path (default: yours)')
    .option('--name <name>', 'name of the fork')
    .option('--path <path>', 'path of the fork')
  withJson(onProject(command)).action((project: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(project, flags)))
}

export const toOptions = (project: string | undefined, flags: OptionValues): ForkOptions => ({
  project: project ?? flags.project,
  namespace: flags.namespace,
  name: flags.name,
  path: flags.path,
  json: flags.json === true,
})

export async function run(options: ForkOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  // `namespace` takes an id or a path, so no lookup is needed (api-v4.md §Projects).
  const { data: fork, response } = await api.send(route('forkProject', { id: ref }), {
    namespace: options.namespace,
    name: options.name,
    path: options.path,
  })
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${fork.web_url}\n`)
  status(deps.io, `Forked ${ref} to ${fork.path_with_namespace}`)
}
