// collab mr diff [mr]: the merge request's changes as a unified diff (coloured on a terminal), or the API's JSON with --json.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { formatDiff } from '../commit/diff.js'
import { onMergeRequest, resolveMergeRequest } from './shared.js'

export interface DiffOptions { project?: string; mr?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onMergeRequest(group.command('diff').description('Show the changes of a merge request as a unified diff')))
  command.action((mr: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(mr, flags)))
}

export const toOptions = (mr: string | undefined, flags: OptionValues): DiffOptions => ({ project: flags.project, mr, json: flags.json === true })

export async function run(options: DiffOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const response = await target.api.call(route('getMergeRequestChanges', { id: target.ref, merge_request_iid: target.iid }))
  if (options.json) return printRaw(deps.io, response.text)
  const changes = parseJson<ResponseOf<'getMergeRequestChanges'>>(response)
  deps.io.stdout.write(formatDiff(deps.io, changes.changes))
  if (changes.overflow) status(deps.io, `warning: the server cut the diff short (${changes.changes_count} files changed); see ${changes.web_url}/diffs`)
}
