// collab project branches delete <name>: remove a branch (its commits stay reachable from other refs).
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { status } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface BranchDeleteOptions {
  project?: string
  name: string
}

export function register(branches: Command, rt: Runtime): void {
  const command = onRepository(branches.command('delete').alias('rm').description('Delete a branch').argument('<name>', 'the branch'))
    .action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): BranchDeleteOptions => ({ project: flags.project, name })

export async function run(options: BranchDeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('deleteBranch', { id: ref, branch: options.name }))
  status(deps.io, `Deleted branch ${options.name}`)
}
