// collab issue list: issues of a project (or a group, or every project with --instance), with the API's filters one to one.
import type { Command, OptionValues } from 'commander'
import {
  choice, collect, pageOptions, pageQuery, positiveInt, withConnection, withJson, withPagination, withProject, type PageOptions, type Runtime,
} from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, printTable } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { csv, issueColumns, type Issue } from './shared.js'

export interface ListOptions extends PageOptions {
  project?: string
  group?: string
  instance: boolean
  query: Record<string, string | number | boolean | number[] | undefined>
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('list')
    .alias('ls')
    .description('List issues of a project, a group (--group) or every project you can see (--instance)')
    .option('--group <group>', 'list the issues of a group (id or path) instead of a project')
    .option('--instance', 'list issues across the instance (GET /issues)')
    .addOption(choice('--state <state>', 'opened, closed or all', ['opened', 'closed', 'all']))
    .option('-l, --label <labels>', 'only issues with all these labels (repeat or comma-separate; "No Label", "Any")', collect)
    .option('--milestone <title>', 'only issues in this milestone ("No Milestone", "Any")')
    .option('--iid <iid>', 'only these iids (repeatable)', (v: string, prev: number[] = []) => [...prev, positiveInt(v)])
    .addOption(choice('--scope <scope>', 'created_by_me (the default with --instance), assigned_to_me or all', ['created_by_me', 'assigned_to_me', 'all']))
    .option('--author-id <id>', 'only issues created by this user', positiveInt)
    .option('--assignee-id <id>', 'only issues assigned to this user id, or None / Any')
    .option('--my-reaction-emoji <emoji>', 'only issues you reacted to with this emoji')
    .option('--search <text>', 'only issues whose title or description contains the text')
    .option('--confidential', 'only confidential issues')
    .option('--no-confidential', 'only issues that are not confidential')
    .option('--created-after <time>', 'created on or after (ISO 8601)')
    .option('--created-before <time>', 'created on or before (ISO 8601)')
    .option('--updated-after <time>', 'updated on or after (ISO 8601)')
    .option('--updated-before <time>', 'updated on or before (ISO 8601)')
    .addOption(choice('--order-by <field>', 'created_at (default) or updated_at', ['created_at', 'updated_at']))
    .addOption(choice('--sort <direction>', 'asc or desc (default)', ['asc', 'desc']))
  withJson(withPagination(withProject(withConnection(command)))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  project: flags.project,
  group: flags.group,
  instance: flags.instance === true,
  query: {
    state: flags.state,
    labels: csv(flags.label)?.join(','),
    milestone: flags.milestone,
    iids: flags.iid,
    scope: flags.scope,
    author_id: flags.authorId,
    assignee_id: flags.assigneeId,
    my_reaction_emoji: flags.myReactionEmoji,
    search: flags.search,
    confidential: flags.confidential,
    created_after: flags.createdAfter,
    created_before: flags.createdBefore,
    updated_after: flags.updatedAfter,
    updated_before: flags.updatedBefore,
    order_by: flags.orderBy,
    sort: flags.sort,
  },
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  if (options.group !== undefined && options.instance) throw usageError('--group and --instance are mutually exclusive')
  const target = options.instance ? { api: await deps.api(), route: route('listIssues', {}) }
    : options.group !== undefined ? { api: await deps.api(), route: route('listGroupIssues', { id: options.group }) }
    : await deps.project(options.project).then(({ api, ref }) => ({ api, route: route('listProjectIssues', { id: ref }) }))
  const page = await target.api.list(target.route, { ...options.query, ...pageQuery(options) }, { all: options.all })
  if (options.json) printRaw(deps.io, page.text)
  else await printTable(deps.io, issueColumns(deps.io), page.items)
}
