// collab issue move <iid> --to <project>: move an issue to another project; prints the new issue's URL.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onIssue } from './shared.js'

export interface MoveOptions { project?: string; iid: number; to: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onIssue(group.command('move').description('Move an issue to another project')))
    .requiredOption('--to <project>', 'the target project, by id or path')
    .action((iid: number, flags: OptionValues) => rt.invoke(command, run, toOptions(iid, flags)))
}

export const toOptions = (iid: number, flags: OptionValues): MoveOptions => ({ project: flags.project, iid, to: flags.to, json: flags.json === true })

export async function run(options: MoveOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const to = /^\d+$/.test(options.to) ? Number(options.to) : (await api.get(route('getProject', { id: options.to }))).id
  const { data, response } = await api.send(route('moveProjectIssue', { id: ref, issue_iid: options.iid }), { to_project_id: to })
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${data.web_url}\n`)
  status(deps.io, `Moved issue #${options.iid} of ${ref} to ${options.to} as #${data.iid}`)
}
