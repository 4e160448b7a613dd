// collab project tags list: a project's tags with the commits they name.
import type { Command, OptionValues } from 'commander'
import { choice, pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw, printTable } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface TagsListOptions extends PageOptions {
  project?: string
  search?: string
  orderBy?: string
  sort?: string
  json: boolean
}

export function register(tags: Command, rt: Runtime): void {
  const command = tags
    .command('list', { isDefault: true })
    .alias('ls')
    .description('List the tags of a project')
    .option('--search <text>', 'only tags whose name contains the text (^text and text$ anchor it)')
    .addOption(choice('--order-by <field>', 'sort by this field (server default: updated)', ['name', 'updated', 'version']))
    .addOption(choice('--sort <direction>', 'sort direction (server default: desc)', ['asc', 'desc']))
  withJson(withPagination(onRepository(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): TagsListOptions => ({
  project: flags.project,
  search: flags.search,
  orderBy: flags.orderBy,
  sort: flags.sort,
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: TagsListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listTags', { id: ref }), {
    search: options.search,
    order_by: options.orderBy,
    sort: options.sort,
    ...pageQuery(options),
  }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  const { io } = deps
  await printTable(io, [
    { header: 'NAME', value: (t) => t.name, style: (text) => io.color.bold(text) },
    { header: 'SHA', value: (t) => (io.stdoutIsTTY ? t.commit.short_id : t.commit.id), style: (text) => io.color.dim(text) },
    { header: 'MESSAGE', value: (t) => t.message },
  ], page.items)
}
