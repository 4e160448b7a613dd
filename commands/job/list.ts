// collab job list: a project's jobs newest first, or with --pipeline (or --latest) one pipeline's jobs in stage order.
import { InvalidArgumentError, Option, type Command, type OptionValues } from 'commander'
import { pageOptions, pageQuery, withConnection, withJson, withPagination, withProject, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { latestPipelineId, parseId } from '../pipeline/shared.js'
import { jobColumns } from './shared.js'

export const JOB_STATUSES = ['created', 'pending', 'running', 'failed', 'success', 'canceled', 'skipped', 'waiting_for_resource', 'manual'] as const

/** Repeatable and checked: commander's choices() would replace the collecting parser. */
function scope(value: string, previous: string[] = []): string[] {
  if (!(JOB_STATUSES as readonly string[]).includes(value)) throw new InvalidArgumentError(`Allowed choices are ${JOB_STATUSES.join(', ')}.`)
  return [...previous, value]
}

export interface ListOptions extends PageOptions {
  project?: string
  pipeline?: string
  /** The latest pipeline of this ref (true: of the current branch). */
  latest?: string | true
  scope: string[]
  includeRetried: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('list')
    .alias('ls')
    .description("List a project's jobs, newest first, or one pipeline's jobs (--pipeline, --latest)")
    .option('--pipeline <id>', "only this pipeline's jobs")
    .option('-l, --latest [ref]', 'only the jobs of the latest pipeline of a branch (default: the current branch)')
    .addOption(new Option('-s, --scope <status>', `only jobs in this status (repeatable): ${JOB_STATUSES.join(', ')}`).argParser(scope))
    .option('--include-retried', 'with a pipeline, also the tries that were retried')
  withJson(withPagination(withProject(withConnection(command)))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  project: flags.project, pipeline: flags.pipeline, latest: flags.latest, scope: flags.scope ?? [],
  includeRetried: flags.includeRetried === true, ...pageOptions(flags), json: flags.json === true,
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const pipeline = options.pipeline !== undefined ? parseId(options.pipeline, 'pipeline')
    : options.latest !== undefined ? await latestPipelineId(deps, api, ref, options.latest === true ? undefined : options.latest)
    : undefined
  const query = { scope: options.scope.length > 0 ? options.scope : undefined, ...pageQuery(options) }
  const page = pipeline === undefined
    ? await api.list(route('listProjectJobs', { id: ref }), query, { all: options.all })
    : await api.list(route('listPipelineJobs', { id: ref, pipeline_id: pipeline }), { ...query, include_retried: options.includeRetried || undefined }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, jobColumns(deps.io), page, { noun: 'jobs', where: pipeline === undefined ? ref : `pipeline #${pipeline}` })
}
