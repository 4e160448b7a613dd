// collab project list: the projects visible to you, with GET /projects' filters.
import type { Command, OptionValues } from 'commander'
import {
  choice, pageOptions, pageQuery, withConnection, withJson, withPagination, type PageOptions, type Runtime,
} from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { projectColumns, VISIBILITIES } from './shared.js'

const ORDER_BY = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'star_count'] as const

export interface ListOptions extends PageOptions {
  owned: boolean
  membership: boolean
  starred: boolean
  search?: string
  visibility?: string
  /** undefined: both; true: only archived; false: only active. */
  archived?: boolean
  orderBy?: string
  sort?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('list')
    .alias('ls')
    .description('List projects visible to you')
    .option('--owned', 'only projects you own')
    .option('--membership', 'only projects you are a member of')
    .option('--starred', 'only projects you starred')
    .option('--search <text>', 'only projects whose name or path contains the text')
    .addOption(choice('--visibility <visibility>', 'only projects with this visibility', VISIBILITIES))
    .option('--archived', 'only archived projects')
    .option('--no-archived', 'only projects that are not archived')
    .addOption(choice('--order-by <field>', 'sort by this field (server default: created_at)', ORDER_BY))
    .addOption(choice('--sort <direction>', 'sort direction (server default: desc)', ['asc', 'desc']))
  withJson(withPagination(withConnection(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  owned: flags.owned === true,
  membership: flags.membership === true,
  starred: flags.starred === true,
  search: flags.search,
  visibility: flags.visibility,
  archived: flags.archived,
  orderBy: flags.orderBy,
  sort: flags.sort,
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const api = await deps.api()
  const page = await api.list(route('listProjects', {}), {
    owned: options.owned || undefined,
    membership: options.membership || undefined,
    starred: options.starred || undefined,
    search: options.search,
    visibility: options.visibility,
    archived: options.archived,
    order_by: options.orderBy,
    sort: options.sort,
    ...pageQuery(options),
  }, { all: options.all })
  if (options.json) printRaw(deps.io, page.text)
  else await printList(deps.io, projectColumns(deps.io), page, { noun: 'projects' })
}
