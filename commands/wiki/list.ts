// collab wiki list: a project's wiki pages, sorted by path.
import type { Command, OptionValues } from 'commander'
import { withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { pageColumns } from './shared.js'

export interface ListOptions { project?: string; withContent: boolean; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('list')
    .alias('ls')
    .description("List a project's wiki pages")
    .option('--with-content', 'with --json, include each page\'s content')
  withJson(withProject(withConnection(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  project: flags.project, withContent: flags.withContent === true, json: flags.json === true,
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listWikiPages', { id: ref }), { with_content: options.withContent || undefined })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, pageColumns(deps.io), page, { noun: 'wiki pages', where: ref })
}
