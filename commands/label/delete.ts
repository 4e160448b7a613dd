// collab label delete <name>: delete a label (issues and merge requests lose it).
import type { Command, OptionValues } from 'commander'
import { withConnection, withProject, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'

export interface DeleteOptions { project?: string; name: string }

export function register(group: Command, rt: Runtime): void {
  const command = withProject(withConnection(group.command('delete').alias('rm').description('Delete a label').argument('<name>', 'the label name or id')))
  command.action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): DeleteOptions => ({ project: flags.project, name })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('deleteProjectLabel', { id: ref, label_id: options.name }))
  status(deps.io, `Deleted label ${options.name} in ${ref}`)
}
