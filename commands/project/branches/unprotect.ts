// collab project branches unprotect <name>: remove the protection rule of a branch or wildcard (the branch stays).
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { status } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface UnprotectOptions { project?: string; name: string }

export function register(branches: Command, rt: Runtime): void {
  const command = onRepository(branches.command('unprotect').description('Remove the protection of a branch or wildcard').argument('<name>', 'the protected name'))
    .action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): UnprotectOptions => ({ project: flags.project, name })

export async function run(options: UnprotectOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('unprotectBranch', { id: ref, name: options.name }))
  status(deps.io, `Unprotected ${options.name} in ${ref}`)
}
