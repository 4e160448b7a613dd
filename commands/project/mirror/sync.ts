// collab project mirror sync <id>: ask the server to push to the mirror now; the update runs in the background.
import type { Command, OptionValues } from 'commander'
import { positiveInt, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { status } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface MirrorSyncOptions {
  project?: string
  id: number
}

export function register(mirror: Command, rt: Runtime): void {
  const command = onRepository(mirror.command('sync').description('Update a push mirror now (see its status with mirror list)')
    .argument('<id>', 'the mirror', positiveInt))
    .action((id: number, flags: OptionValues) => rt.invoke(command, run, toOptions(id, flags)))
}

export const toOptions = (id: number, flags: OptionValues): MirrorSyncOptions => ({ project: flags.project, id })

export async function run(options: MirrorSyncOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('syncRemoteMirror', { id: ref, mirror_id: options.id }))
  status(deps.io, `Started an update of push mirror ${options.id}`)
}
