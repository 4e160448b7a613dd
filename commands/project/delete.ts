// collab project delete [project]: delete a project, after typing its path (or --yes).
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onProject } from './shared.js'

export interface DeleteOptions {
  project?: string
  yes: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = onProject(group.command('delete').description('Delete a project and its repository'))
    .option('-y, --yes', 'do not ask for confirmation')
    .action((project: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(project, flags)))
}

export const toOptions = (project: string | undefined, flags: OptionValues): DeleteOptions => ({
  project: project ?? flags.project,
  yes: flags.yes === true,
})

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  if (!options.yes) {
    const typed = await deps.prompter.input(`Type ${ref} to delete it`, '--yes')
    if (typed.trim() !== ref) throw failure(`'${typed.trim()}' is not ${ref}; nothing was deleted`)
  }
  await api.call(route('deleteProject', { id: ref }))
  status(deps.io, `Deleted project ${ref}`)
}
