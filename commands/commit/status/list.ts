// collab commit status list <sha>: the statuses of a commit, the latest per name and ref unless --all-statuses.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw, printTable } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onCommit } from '../shared.js'

export interface StatusListOptions extends PageOptions {
  project?: string
  sha: string
  ref?: string
  name?: string
  stage?: string
  /** The API's `all`: superseded statuses too. `all` (from PageOptions) means every page, as in every list verb. */
  allStatuses: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('list', { isDefault: true })
    .alias('ls')
    .description('List the statuses of a commit')
    .option('--ref <ref>', 'only statuses for this branch or tag')
    .option('-n, --name <name>', 'only statuses with this name')
    .option('--stage <stage>', 'only statuses of this pipeline stage')
    .option('--all-statuses', 'also the statuses a later one of the same name replaced (the API\'s all=true)')
  withJson(withPagination(onCommit(command))).action((sha: string, flags: OptionValues) => rt.invoke(command, run, toOptions(sha, flags)))
}

export const toOptions = (sha: string, flags: OptionValues): StatusListOptions => ({
  project: flags.project,
  sha,
  ref: flags.ref,
  name: flags.name,
  stage: flags.stage,
  allStatuses: flags.allStatuses === true,
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: StatusListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listCommitStatuses', { id: ref, sha: options.sha }), {
    ref: options.ref,
    name: options.name,
    stage: options.stage,
    all: options.allStatuses || undefined,
    ...pageQuery(options),
  }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  const { color } = deps.io
  await printTable(deps.io, [
    { header: 'NAME', value: (s) => s.name, style: (text) => color.bold(text) },
    { header: 'STATE', value: (s) => s.status, style: (text) => (text === 'success' ? color.green(text) : text === 'failed' ? color.red(text) : text) },
    { header: 'REF', value: (s) => s.ref },
    { header: 'COVERAGE', value: (s) => s.coverage },
    { header: 'DESCRIPTION', value: (s) => s.description },
    { header: 'URL', value: (s) => s.target_url },
    { header: 'CREATED', value: (s) => s.created_at },
  ], page.items)
}
