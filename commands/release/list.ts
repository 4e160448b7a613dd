// collab release list: a project's releases, newest released first (or by creation with --order-by created_at).
import type { Command, OptionValues } from 'commander'
import { choice, pageOptions, pageQuery, withConnection, withJson, withPagination, withProject, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { releaseColumns, type Release } from './shared.js'

export interface ListOptions extends PageOptions { project?: string; orderBy?: string; sort?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('list').alias('ls').description("List a project's releases")
    .addOption(choice('--order-by <field>', 'order by released_at (the default) or created_at', ['released_at', 'created_at']))
    .addOption(choice('--sort <order>', 'desc (the default) or asc', ['asc', 'desc']))
  withJson(withPagination(withProject(withConnection(command)))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  project: flags.project, orderBy: flags.orderBy, sort: flags.sort, ...pageOptions(flags), json: flags.json === true,
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listReleases', { id: ref }), { ...pageQuery(options), order_by: options.orderBy, sort: options.sort }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList<Release>(deps.io, releaseColumns(deps.io), page, { noun: 'releases', where: ref })
}
