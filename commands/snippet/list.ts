// collab snippet list: a project's snippets, or with --personal your own (--public: everyone's public ones).
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { snippetColumns, snippetTarget, withScope } from './shared.js'

export interface ListOptions extends PageOptions { project?: string; personal: boolean; public: boolean; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('list')
    .alias('ls')
    .description("List a project's snippets, or your personal snippets (--personal), or all public ones (--public)")
    .option('--public', 'every public personal snippet of the instance')
  withJson(withPagination(withScope(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  project: flags.project, personal: flags.personal === true, public: flags.public === true, ...pageOptions(flags), json: flags.json === true,
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  if (options.public && options.project !== undefined) throw usageError('--public and --project are mutually exclusive')
  const target = options.public ? undefined : await snippetTarget(deps, options)
  const api = target?.api ?? (await deps.api())
  const page = await api.list(target ? target.list() : route('listPublicSnippets', {}), pageQuery(options), { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, snippetColumns(deps.io), page, { noun: 'snippets', where: target?.where ?? 'public snippets' })
}
