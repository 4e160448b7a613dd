// collab project branches list: a project's branches with their head commits.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw, printTable } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import type { ResponseOf } from '../../../src/contract/routes.js'
import { onRepository } from '../repository.js'

export interface BranchesListOptions extends PageOptions {
  project?: string
  search?: string
  json: boolean
}

export function register(branches: Command, rt: Runtime): void {
  const command = branches
    .command('list', { isDefault: true })
    .alias('ls')
    .description('List the branches of a project')
    .option('--search <text>', 'only branches whose name contains the text (^text and text$ anchor it)')
  withJson(withPagination(onRepository(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): BranchesListOptions => ({
  project: flags.project,
  search: flags.search,
  ...pageOptions(flags),
  json: flags.json === true,
})

/** `default protected merged`, the words that apply. */
const flagsOf = (b: ResponseOf<'getBranch'>) => (['default', 'protected', 'merged'] as const).filter((flag) => b[flag]).join(' ')

export async function run(options: BranchesListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listBranches', { id: ref }), { search: options.search, ...pageQuery(options) }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  const { io } = deps
  await printTable(io, [
    { header: 'NAME', value: (b) => b.name, style: (text) => io.color.bold(text) },
    { header: 'SHA', value: (b) => (io.stdoutIsTTY ? b.commit.short_id : b.commit.id), style: (text) => io.color.dim(text) },
    { header: 'FLAGS', value: flagsOf },
    { header: 'TITLE', value: (b) => b.commit.title },
  ], page.items)
}
