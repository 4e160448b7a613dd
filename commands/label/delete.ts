// collab label delete <name>: delete a label (issues and merge requests lose it).
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from './owner.js'

export interface DeleteOptions extends OwnerOptions { name: string }

export function register(group: Command, rt: Runtime): void {
  const command = withOwner(group.command('delete').alias('rm').description('Delete a label').argument('<name>', 'the label name or id'), 'labels')
  command.action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): DeleteOptions => ({ project: flags.project, group: flags.group, name })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const { api, group, id } = await ownerTarget(options, deps)
  await api.call(route(group ? 'deleteGroupLabel' : 'deleteProjectLabel', { id, label_id: options.name }))
  status(deps.io, `Deleted label ${options.name} in ${id}`)
}
