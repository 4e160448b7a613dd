// collab issue delete <iid>: delete an issue (owners and administrators), after a confirmation or --yes.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onIssue } from './shared.js'

export interface DeleteOptions { project?: string; iid: number; yes: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = onIssue(group.command('delete').description('Delete an issue'))
    .option('-y, --yes', 'do not ask for confirmation')
    .action((iid: number, flags: OptionValues) => rt.invoke(command, run, toOptions(iid, flags)))
}

export const toOptions = (iid: number, flags: OptionValues): DeleteOptions => ({ project: flags.project, iid, yes: flags.yes === true })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  if (!options.yes && !(await deps.prompter.confirm(`Delete issue #${options.iid} of ${ref}?`, '--yes'))) throw failure('nothing was deleted')
  await api.call(route('deleteProjectIssue', { id: ref, issue_iid: options.iid }))
  status(deps.io, `Deleted issue #${options.iid} in ${ref}`)
}
