// collab project forks [project]: the forks of a project you can see.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, printTable } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onProject, projectColumns, type Project } from './shared.js'

export interface ForksOptions extends PageOptions {
  project?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group.command('forks').description('List the forks of a project')
  withJson(withPagination(onProject(command))).action((project: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(project, flags)))
}

export const toOptions = (project: string | undefined, flags: OptionValues): ForksOptions => ({
  project: project ?? flags.project,
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: ForksOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listForks', { id: ref }), pageQuery(options), { all: options.all })
  if (options.json) printRaw(deps.io, page.text)
  else await printTable(deps.io, projectColumns(deps.io), page.items)
}
