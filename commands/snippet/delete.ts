// collab snippet delete <snippet>: delete a snippet (its author, or a Maintainer of its project) after a confirmation or --yes.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { onSnippet, snippetId, snippetTarget, type SnippetScope } from './shared.js'

export interface DeleteOptions extends SnippetScope { id: number; yes: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = onSnippet(group.command('delete').description('Delete a snippet'))
    .option('-y, --yes', 'do not ask for confirmation')
  command.action((id: string, flags: OptionValues) => rt.invoke(command, run, toOptions(id, flags)))
}

export const toOptions = (id: string, flags: OptionValues): DeleteOptions =>
  ({ project: flags.project, personal: flags.personal === true, id: snippetId(id), yes: flags.yes === true })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const target = await snippetTarget(deps, options)
  if (!options.yes && !(await deps.prompter.confirm(`Delete snippet ${options.id} of ${target.where}?`, '--yes'))) throw failure('nothing was deleted')
  await target.api.call(target.remove(options.id))
  status(deps.io, `Deleted snippet ${options.id} of ${target.where}`)
}
