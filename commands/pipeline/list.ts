// collab pipeline list: a project's pipelines, newest first, with the API's filters one to one.
import { Option, type Command, type OptionValues } from 'commander'
import { isoDate, pageOptions, pageQuery, withConnection, withJson, withPagination, withProject, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import type { Query } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { PIPELINE_STATUSES_CLI, pipelineColumns } from './shared.js'

export interface ListOptions extends PageOptions { project?: string; query: Query; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('list')
    .alias('ls')
    .description("List a project's pipelines, newest first")
    .addOption(new Option('-s, --status <status>', 'only pipelines in this status').choices(PIPELINE_STATUSES_CLI))
    .addOption(new Option('--scope <scope>', 'running, pending, finished, branches (latest per branch) or tags').choices(['running', 'pending', 'finished', 'branches', 'tags']))
    .option('-r, --ref <ref>', 'only pipelines of this branch or tag')
    .option('--sha <sha>', 'only pipelines of this commit')
    .option('--source <source>', 'only pipelines started this way: push, web, api, merge_request_event, schedule, trigger…')
    .option('--username <username>', 'only pipelines started by this user')
    .option('--yaml-errors', 'only pipelines whose .gitlab-ci.yml is broken')
    .option('--updated-after <date>', 'only pipelines updated after this ISO 8601 date', isoDate)
    .option('--updated-before <date>', 'only pipelines updated before this ISO 8601 date', isoDate)
    .addOption(new Option('--order-by <field>', 'sort by id (the default), status, ref, updated_at or user_id').choices(['id', 'status', 'ref', 'updated_at', 'user_id']))
    .addOption(new Option('--sort <order>', 'asc or desc (the default)').choices(['asc', 'desc']))
  withJson(withPagination(withProject(withConnection(command)))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  project: flags.project,
  query: {
    status: flags.status, scope: flags.scope, ref: flags.ref, sha: flags.sha, source: flags.source, username: flags.username,
    yaml_errors: flags.yamlErrors ? true : undefined, updated_after: flags.updatedAfter, updated_before: flags.updatedBefore,
    order_by: flags.orderBy, sort: flags.sort,
  },
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listPipelines', { id: ref }), { ...options.query, ...pageQuery(options) }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, pipelineColumns(deps.io), page, { noun: 'pipelines', where: ref })
}
