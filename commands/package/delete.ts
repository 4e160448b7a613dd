// collab package delete ID: delete a package and all its files (Maintainers).
import type { Command, OptionValues } from 'commander'
import { positiveInt, withConnection, withProject, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'

export interface DeleteOptions { project?: string; id: number }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('delete').alias('rm').description('Delete a package and its files')
    .argument('<id>', 'the package id (collab package list shows it)', positiveInt)
  withProject(withConnection(command)).action((id: number, flags: OptionValues) => rt.invoke(command, run, toOptions(id, flags)))
}

export const toOptions = (id: number, flags: OptionValues): DeleteOptions => ({ project: flags.project, id })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('deleteProjectPackage', { id: ref, package_id: options.id }))
  status(deps.io, `Deleted package ${options.id} in ${ref}`)
}
