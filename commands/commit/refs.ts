// collab commit refs <sha>: the branches and tags that contain a commit.
import type { Command, OptionValues } from 'commander'
import { choice, pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, printTable } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onCommit } from './shared.js'

export interface RefsOptions extends PageOptions {
  project?: string
  sha: string
  type?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('refs')
    .description('List the branches and tags that contain a commit')
    .addOption(choice('--type <type>', 'which refs (server default: all)', ['branch', 'tag', 'all']))
  withJson(withPagination(onCommit(command))).action((sha: string, flags: OptionValues) => rt.invoke(command, run, toOptions(sha, flags)))
}

export const toOptions = (sha: string, flags: OptionValues): RefsOptions => ({
  project: flags.project,
  sha,
  type: flags.type,
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: RefsOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('getCommitRefs', { id: ref, sha: options.sha }), { type: options.type, ...pageQuery(options) }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printTable(deps.io, [
    { header: 'TYPE', value: (r) => r.type, style: (text) => deps.io.color.dim(text) },
    { header: 'NAME', value: (r) => r.name, style: (text) => deps.io.color.bold(text) },
  ], page.items)
}
