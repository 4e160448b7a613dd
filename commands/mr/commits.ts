// collab mr commits [mr]: the commits of a merge request, newest first.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, printTable } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onMergeRequest, resolveMergeRequest } from './shared.js'

export interface CommitsOptions extends PageOptions { project?: string; mr?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withPagination(onMergeRequest(group.command('commits').description('List the commits of a merge request'))))
  command.action((mr: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(mr, flags)))
}

export const toOptions = (mr: string | undefined, flags: OptionValues): CommitsOptions => ({ project: flags.project, mr, ...pageOptions(flags), json: flags.json === true })

export async function run(options: CommitsOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const page = await target.api.list(route('listMergeRequestCommits', { id: target.ref, merge_request_iid: target.iid }), pageQuery(options), { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  const { io } = deps
  await printTable(io, [
    { header: 'SHA', value: (c) => (io.stdoutIsTTY ? c.short_id : c.id), style: (text) => io.color.dim(text) },
    { header: 'AUTHOR', value: (c) => c.author_name },
    { header: 'CREATED', value: (c) => c.created_at },
    { header: 'TITLE', value: (c) => c.title, style: (text) => io.color.bold(text) },
  ], page.items)
}
