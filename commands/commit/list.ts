// collab commit list: a project's history with GET …/repository/commits' filters, one to one.
import type { Command, OptionValues } from 'commander'
import {
  choice, isoDate, pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime,
} from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { commitColumns, onRepository } from './shared.js'

export interface ListOptions extends PageOptions {
  project?: string
  ref?: string
  since?: string
  until?: string
  path?: string
  author?: string
  /** The API's `all`: every branch and tag. `all` (from PageOptions) means every page, as in every list verb. */
  allRefs: boolean
  firstParent: boolean
  order?: string
  withStats: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('list')
    .alias('ls')
    .description("List a project's commits, newest first")
    .option('-r, --ref <ref>', 'branch, tag or SHA to start from (default: the default branch)')
    .option('--since <date>', 'only commits after this ISO 8601 date or time', isoDate)
    .option('--until <date>', 'only commits before this ISO 8601 date or time', isoDate)
    .option('--path <path>', 'only commits that touch this file or directory')
    .option('--author <text>', 'only commits whose author name or email contains the text')
    .option('--all-refs', 'commits of every branch and tag (the API\'s all=true)')
    .option('--first-parent', 'follow only the first parent of merge commits')
    .addOption(choice('--order <order>', 'commit order (server default: default)', ['default', 'topo']))
    .option('--with-stats', 'include the lines added and deleted by each commit')
  withJson(withPagination(onRepository(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  project: flags.project,
  ref: flags.ref,
  since: flags.since,
  until: flags.until,
  path: flags.path,
  author: flags.author,
  allRefs: flags.allRefs === true,
  firstParent: flags.firstParent === true,
  order: flags.order,
  withStats: flags.withStats === true,
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listCommits', { id: ref }), {
    ref_name: options.ref,
    since: options.since,
    until: options.until,
    path: options.path,
    author: options.author,
    all: options.allRefs || undefined,
    first_parent: options.firstParent || undefined,
    order: options.order,
    with_stats: options.withStats || undefined,
    ...pageQuery(options),
  }, { all: options.all })
  if (options.json) printRaw(deps.io, page.text)
  else await printList(deps.io, commitColumns(deps.io, options.withStats), page, { noun: 'commits', where: options.ref ? `${ref} ${options.ref}` : ref })
}
