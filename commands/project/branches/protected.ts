// collab project branches protected: the protection rules of a project, with who may push, merge and unprotect.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw, printTable } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import type { ResponseOf } from '../../../src/contract/routes.js'
import { onRepository } from '../repository.js'

type Rule = ResponseOf<'getProtectedBranch'>

export interface ProtectedListOptions extends PageOptions { project?: string; search?: string; json: boolean }

export function register(branches: Command, rt: Runtime): void {
  const command = branches
    .command('protected')
    .description('List the protected branches and wildcards of a project')
    .option('--search <text>', 'only rules whose name contains the text')
  withJson(withPagination(onRepository(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ProtectedListOptions => ({ project: flags.project, search: flags.search, ...pageOptions(flags), json: flags.json === true })

/** `Maintainers`, or several descriptions joined when a rule has more than one level. */
const levels = (access: Rule['push_access_levels']) => access.map((a) => a.access_level_description).join(',')

export async function run(options: ProtectedListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listProtectedBranches', { id: ref }), { search: options.search, ...pageQuery(options) }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printTable<Rule>(deps.io, [
    { header: 'NAME', value: (r) => r.name, style: (text) => deps.io.color.bold(text) },
    { header: 'PUSH', value: (r) => levels(r.push_access_levels) },
    { header: 'MERGE', value: (r) => levels(r.merge_access_levels) },
    { header: 'UNPROTECT', value: (r) => levels(r.unprotect_access_levels) },
    { header: 'FORCE_PUSH', value: (r) => r.allow_force_push },
  ], page.items)
}
