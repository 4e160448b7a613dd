// collab issue list: issues of a project (or a group, or every project with --instance), with the API's filters one to one.
import type { Command, OptionValues } from 'commander'
import {
  stateOption, withConnection, withJson, withPagination, withProject, type Runtime,
} from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { route } from '../../src/client/paths.js'
import { issuableQuery, issueColumns, issuableListOptions, printIssuableList, withIssuableFilters, type IssuableListOptions } from './shared.js'

export type ListOptions = IssuableListOptions

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('list')
    .alias('ls')
    .description('List issues of a project, a group (--group) or every project you can see (--instance)')
    .option('--group <group>', 'list the issues of a group (id or path) instead of a project')
    .option('--instance', 'list issues across the instance (GET /issues)')
    .addOption(stateOption('-s, --state <state>', 'opened (the default, as glab and gh), closed or all', ['opened', 'closed', 'all']))
    .option('-c, --closed', 'only closed issues (--state closed)')
  withIssuableFilters(command, 'issues', ['No Label', 'No Milestone'])
    .option('--confidential', 'only confidential issues')
    .option('--no-confidential', 'only issues that are not confidential')
  withJson(withPagination(withProject(withConnection(command)))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => issuableListOptions(flags, {
  state: flags.state ?? (flags.closed ? 'closed' : 'opened'),
  ...issuableQuery(flags),
  confidential: flags.confidential,
})

export const run = (options: ListOptions, deps: Deps) => printIssuableList(deps, options, 'issues', (spans) => issueColumns(deps.io, spans), {
  instance: route('listIssues', {}),
  group: (id) => route('listGroupIssues', { id }),
  project: (ref) => route('listProjectIssues', { id: ref }),
})
