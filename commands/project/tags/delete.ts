// collab project tags delete <name>: remove a tag.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { status } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface TagDeleteOptions {
  project?: string
  name: string
}

export function register(tags: Command, rt: Runtime): void {
  const command = onRepository(tags.command('delete').alias('rm').description('Delete a tag').argument('<name>', 'the tag'))
    .action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): TagDeleteOptions => ({ project: flags.project, name })

export async function run(options: TagDeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('deleteTag', { id: ref, tag_name: options.name }))
  status(deps.io, `Deleted tag ${options.name}`)
}
