// collab user list: the instance's users (everything for administrators), with the API's filters one to one.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withConnection, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { userColumns, type User } from './shared.js'

export interface ListOptions extends PageOptions {
  search?: string
  active: boolean
  blocked: boolean
  admins: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group.command('list').alias('ls').description('List users')
    .option('-s, --search <text>', 'only users whose username, name or email contains this')
    .option('--active', 'only active users')
    .option('--blocked', 'only blocked users')
    .option('--admins', 'only administrators')
  withJson(withPagination(withConnection(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  search: flags.search, active: flags.active === true, blocked: flags.blocked === true, admins: flags.admins === true,
  ...pageOptions(flags), json: flags.json === true,
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const api = await deps.api()
  const query = {
    ...pageQuery(options), search: options.search,
    active: options.active || undefined, blocked: options.blocked || undefined, admins: options.admins || undefined,
  }
  const page = await api.list(route('listUsers', {}), query, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList<User>(deps.io, userColumns(deps.io), page, { noun: 'users' })
}
