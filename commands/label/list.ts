// collab label list: a project's labels.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withConnection, withJson, withPagination, withProject, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { labelColumns } from './shared.js'

export interface ListOptions extends PageOptions { project?: string; search?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('list').alias('ls').description("List a project's labels")
    .option('-s, --search <text>', 'only labels whose name or description holds the text')
  withJson(withPagination(withProject(withConnection(command)))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({ project: flags.project, search: flags.search, ...pageOptions(flags), json: flags.json === true })

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const query = { ...pageQuery(options), ...(options.search === undefined ? {} : { search: options.search }) }
  const page = await api.list(route('listProjectLabels', { id: ref }), query, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, labelColumns(deps.io), page, { noun: 'labels', where: ref })
}
