// collab variable list: a project's CI/CD variables (Maintainers), masked values hidden on a terminal.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withConnection, withJson, withPagination, withProject, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { variableColumns } from './shared.js'

export interface ListOptions extends PageOptions { project?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('list').alias('ls').description("List a project's CI/CD variables")
  withJson(withPagination(withProject(withConnection(command)))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({ project: flags.project, ...pageOptions(flags), json: flags.json === true })

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listProjectVariables', { id: ref }), pageQuery(options), { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, variableColumns(deps.io), page, { noun: 'variables', where: ref })
}
