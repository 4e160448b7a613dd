// collab variable list: a project's, group's or the instance's CI/CD variables, masked values hidden on a terminal.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { ownerOf, variableColumns, variableRoute, variableTarget, withOwner, type OwnerOptions, type Variable } from './shared.js'

export interface ListOptions extends PageOptions, OwnerOptions { json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('list').alias('ls').description("List a project's (or --group's, --instance's) CI/CD variables")
  withJson(withPagination(withOwner(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({ ...ownerOf(flags), ...pageOptions(flags), json: flags.json === true })

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const target = await variableTarget(options, deps)
  const page = await target.api.list(variableRoute<Variable[]>(target, 'list'), pageQuery(options), { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, variableColumns(deps.io, target.kind !== 'instance'), page, { noun: 'variables', where: target.where })
}
