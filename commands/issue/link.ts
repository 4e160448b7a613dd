// collab issue link <iid> <target> [--type]: relate an issue to another (`4`, `#4`, or `group/proj#4` in another project);
// prints the linked issue's URL.
import type { Command, OptionValues } from 'commander'
import { choice, withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onIssue } from './shared.js'

const TYPES = ['relates_to', 'blocks', 'is_blocked_by'] as const
export interface LinkOptions { project?: string; iid: number; target: string; type: (typeof TYPES)[number]; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onIssue(group.command('link').description('Link an issue to another: relates_to, blocks or is_blocked_by')))
    .argument('<target>', 'the other issue: 4 or #4 in this project, group/project#4 in another')
    .addOption(choice('-t, --type <type>', 'how they relate (default relates_to)', TYPES))
    .action((iid: number, target: string, flags: OptionValues) => rt.invoke(command, run, toOptions(iid, target, flags)))
}

export const toOptions = (iid: number, target: string, flags: OptionValues): LinkOptions =>
  ({ project: flags.project, iid, target, type: flags.type ?? 'relates_to', json: flags.json === true })

/** `4` and `#4` name an issue of this project; `path#4` one of another. */
function parseTarget(target: string): { project?: string; iid: number } {
  const m = /^(?:(.+)#|#)?(\d+)$/.exec(target.trim())
  if (!m) throw usageError(`not an issue reference: ${target} (use 4, #4 or group/project#4)`)
  return { project: m[1], iid: Number(m[2]) }
}

export async function run(options: LinkOptions, deps: Deps): Promise<void> {
  const target = parseTarget(options.target)
  const { api, ref } = await deps.project(options.project)
  const { data, response } = await api.send(route('createIssueLink', { id: ref, issue_iid: options.iid }), {
    target_project_id: target.project ?? ref, target_issue_iid: target.iid, link_type: options.type,
  })
  // GitLab stores is_blocked_by as the other issue blocking this one, so the other issue is then the link's source.
  const other = options.type === 'is_blocked_by' ? data.source_issue : data.target_issue
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${other.web_url}\n`)
  status(deps.io, `Linked issue #${options.iid} of ${ref} to ${options.target} (${options.type})`)
}
