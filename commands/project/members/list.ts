// collab project members list: who has access to a project, and at which level.
import type { Command, OptionValues } from 'commander'
import { accessLevelName } from '../../../src/cli/access-level.js'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw, printTable } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onProjectMembers } from './shared.js'

export interface MembersListOptions extends PageOptions {
  project?: string
  inherited: boolean
  query?: string
  json: boolean
}

export function register(members: Command, rt: Runtime): void {
  const command = members
    .command('list', { isDefault: true })
    .alias('ls')
    .description('List the members of a project')
    .option('--inherited', 'include members inherited from groups (/members/all)')
    .option('--query <text>', 'only members whose name or username contains the text')
  withJson(withPagination(onProjectMembers(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): MembersListOptions => ({
  project: flags.project,
  inherited: flags.inherited === true,
  query: flags.query,
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: MembersListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const members = route(options.inherited ? 'listAllProjectMembers' : 'listProjectMembers', { id: ref })
  const page = await api.list(members, { query: options.query, ...pageQuery(options) }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printTable(deps.io, [
    { header: 'ID', value: (m) => m.id, style: (text) => deps.io.color.dim(text) },
    { header: 'USERNAME', value: (m) => m.username, style: (text) => deps.io.color.bold(text) },
    { header: 'NAME', value: (m) => m.name },
    { header: 'ACCESS', value: (m) => accessLevelName(m.access_level) },
    { header: 'EXPIRES', value: (m) => m.expires_at },
  ], page.items)
}
