// collab label list: a project's labels (its groups' too), or a group's with --group.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from './owner.js'
import { labelColumns } from './shared.js'

export interface ListOptions extends PageOptions, OwnerOptions { search?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('list').alias('ls').description("List a project's (or --group's) labels")
    .option('-s, --search <text>', 'only labels whose name or description holds the text')
  withJson(withPagination(withOwner(command, 'labels'))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({ project: flags.project, group: flags.group, search: flags.search, ...pageOptions(flags), json: flags.json === true })

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { api, group, id } = await ownerTarget(options, deps)
  const query = { ...pageQuery(options), ...(options.search === undefined ? {} : { search: options.search }) }
  const page = await api.list(route(group ? 'listGroupLabels' : 'listProjectLabels', { id }), query, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, labelColumns(deps.io), page, { noun: 'labels', where: id })
}
