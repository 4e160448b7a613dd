// collab milestone list: a project's (or with --group a group's) milestones, active or closed.
import { Option, type Command, type OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from '../label/owner.js'
import { milestoneColumns } from './shared.js'

export interface ListOptions extends PageOptions, OwnerOptions { state?: string; search?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('list').alias('ls').description("List a project's (or --group's) milestones")
    .addOption(new Option('--state <state>', 'only active or closed milestones').choices(['active', 'closed']))
    .option('-s, --search <text>', 'only milestones whose title or description holds the text')
  withJson(withPagination(withOwner(command, 'milestones'))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  project: flags.project, group: flags.group, state: flags.state, search: flags.search, ...pageOptions(flags), json: flags.json === true,
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { api, group, id } = await ownerTarget(options, deps)
  const filters = Object.fromEntries(Object.entries({ state: options.state, search: options.search }).filter(([, v]) => v !== undefined)) as Record<string, string>
  const page = await api.list(route(group ? 'listGroupMilestones' : 'listProjectMilestones', { id }), { ...pageQuery(options), ...filters }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, milestoneColumns(deps.io), page, { noun: 'milestones', where: id })
}
