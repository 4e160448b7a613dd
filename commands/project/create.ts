// collab project create <name>: a new project in your namespace or another one.
import type { Command, OptionValues } from 'commander'
import { choice, withConnection, withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import type { ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { VISIBILITIES } from './shared.js'

export interface CreateOptions {
  name: string
  path?: string
  namespace?: string
  description?: string
  visibility?: string
  defaultBranch?: string
  readme: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('create')
    .description('Create a project')
    .argument('<name>', 'the project name')
    .option('--path <path>', 'the path in URLs (default: from the name)')
    .option('--namespace <namespace>', 'group or user namespace, by id or path (default: yours)')
    .option('--description <text>', 'a short description')
    .addOption(choice('--visibility <visibility>', 'who can see it (server default: private)', VISIBILITIES))
    .option('--default-branch <branch>', 'the default branch')
    .option('--readme', 'create the repository with a README')
  withJson(withConnection(command)).action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): CreateOptions => ({
  name,
  path: flags.path,
  namespace: flags.namespace,
  description: flags.description,
  visibility: flags.visibility,
  defaultBranch: flags.defaultBranch,
  readme: flags.readme === true,
  json: flags.json === true,
})

/** POST /projects takes a namespace id; a path is looked up first. */
export async function namespaceId(api: ApiClient, namespace: string): Promise<number> {
  if (/^\d+$/.test(namespace)) return Number(namespace)
  return (await api.get(route('getNamespace', { id: namespace }))).id
}

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  const api = await deps.api()
  const { data: project, response } = await api.send(route('createProject', {}), {
    name: options.name,
    path: options.path,
    namespace_id: options.namespace === undefined ? undefined : await namespaceId(api, options.namespace),
    description: options.description,
    visibility: options.visibility,
    default_branch: options.defaultBranch,
    initialize_with_readme: options.readme || undefined,
  })
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${project.web_url}\n`)
  status(deps.io, `Created project ${project.path_with_namespace}`)
}
