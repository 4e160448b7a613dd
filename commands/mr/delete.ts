// collab mr delete [mr]: delete a merge request (owners and administrators), after a confirmation or --yes.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onMergeRequest, reference, resolveMergeRequest } from './shared.js'

export interface DeleteOptions { project?: string; mr?: string; yes: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = onMergeRequest(group.command('delete').description('Delete a merge request'))
    .option('-y, --yes', 'do not ask for confirmation')
  command.action((mr: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(mr, flags)))
}

export const toOptions = (mr: string | undefined, flags: OptionValues): DeleteOptions => ({ project: flags.project, mr, yes: flags.yes === true })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  if (!options.yes && !(await deps.prompter.confirm(`Delete merge request ${reference(target)}?`, '--yes'))) throw failure('nothing was deleted')
  await target.api.call(route('deleteProjectMergeRequest', { id: target.ref, merge_request_iid: target.iid }))
  status(deps.io, `Deleted merge request ${reference(target)}`)
}
