// collab project mirror delete <id>: stop mirroring to that repository.
import type { Command, OptionValues } from 'commander'
import { positiveInt, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { status } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface MirrorDeleteOptions {
  project?: string
  id: number
}

export function register(mirror: Command, rt: Runtime): void {
  const command = onRepository(mirror.command('delete').alias('rm').description('Delete a push mirror').argument('<id>', 'the mirror', positiveInt))
    .action((id: number, flags: OptionValues) => rt.invoke(command, run, toOptions(id, flags)))
}

export const toOptions = (id: number, flags: OptionValues): MirrorDeleteOptions => ({ project: flags.project, id })

export async function run(options: MirrorDeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('deleteRemoteMirror', { id: ref, mirror_id: options.id }))
  status(deps.io, `Deleted push mirror ${options.id}`)
}
