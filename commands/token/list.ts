// collab token list: a project's (or --group's) access tokens.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from '../label/owner.js'
import { tokenColumns } from './shared.js'

export interface ListOptions extends PageOptions, OwnerOptions { active: boolean; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('list').alias('ls').description("List a project's (or --group's) access tokens")
    .option('-a, --active', 'only tokens neither revoked nor expired')
  withJson(withPagination(withOwner(command, 'access tokens'))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({ project: flags.project, group: flags.group, active: flags.active === true, ...pageOptions(flags), json: flags.json === true })

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { api, group, id } = await ownerTarget(options, deps)
  const query = { ...pageQuery(options), ...(options.active ? { state: 'active' } : {}) }
  const page = await api.list(route(group ? 'listGroupAccessTokens' : 'listProjectAccessTokens', { id }), query, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, tokenColumns(deps.io), page, { noun: 'access tokens', where: id })
}
