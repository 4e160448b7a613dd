// collab mr list: merge requests of a project (or a group, or every project with --instance), with the API's filters one to one.
import { Option, type Command, type OptionValues } from 'commander'
import { stateOption, withConnection, withJson, withPagination, withProject, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { route } from '../../src/client/paths.js'
import { completeWith } from '../complete.js'
import { issuableQuery, issuableListOptions, printIssuableList, withIssuableFilters, type IssuableListOptions } from '../issue/shared.js'
import { mrColumns } from './shared.js'

export type ListOptions = IssuableListOptions

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('list')
    .alias('ls')
    .description('List merge requests of a project, a group (--group) or every project you can see (--instance)')
    .option('--group <group>', 'list the merge requests of a group (id or path) instead of a project')
    .option('--instance', 'list merge requests across the instance (GET /merge_requests)')
    .addOption(stateOption('-s, --state <state>', 'opened (the default, as glab and gh), closed, locked, merged or all', ['opened', 'closed', 'locked', 'merged', 'all']))
    .option('--reviewer-id <id>', 'only merge requests with this reviewer id, or None / Any')
    .option('--reviewer <username>', 'only merge requests with this reviewer username')
    .addOption(completeWith(new Option('--source-branch <branch>', 'only merge requests from this branch'), 'branches'))
    .addOption(completeWith(new Option('--target-branch <branch>', 'only merge requests into this branch'), 'branches'))
    .option('--draft', 'only drafts (wip=yes)')
    .option('--no-draft', 'only merge requests that are not drafts (wip=no)')
    .option('--simple', 'ask for the simple form (view=simple): iid, title, state and URL only')
  withIssuableFilters(command, 'merge requests', ['None', 'None'])
  withJson(withPagination(withProject(withConnection(command)))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => issuableListOptions(flags, {
  state: flags.state ?? 'opened',
  ...issuableQuery(flags),
  reviewer_id: flags.reviewerId,
  reviewer_username: flags.reviewer,
  source_branch: flags.sourceBranch,
  target_branch: flags.targetBranch,
  wip: flags.draft === undefined ? undefined : flags.draft ? 'yes' : 'no',
  view: flags.simple ? 'simple' : undefined,
})

export const run = (options: ListOptions, deps: Deps) => printIssuableList(deps, options, 'merge requests', (spans) => mrColumns(deps.io, spans), {
  instance: route('listMergeRequests', {}),
  group: (id) => route('listGroupMergeRequests', { id }),
  project: (ref) => route('listProjectMergeRequests', { id: ref }),
})
