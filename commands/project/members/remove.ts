// collab project members remove <user>: take a user's access to a project away.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { status } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onProjectMembers, userId } from './shared.js'

export interface MemberRemoveOptions {
  project?: string
  user: string
}

export function register(members: Command, rt: Runtime): void {
  const command = onProjectMembers(members.command('remove').alias('rm').description('Remove a member from a project').argument('<user>', 'user id or username'))
    .action((user: string, flags: OptionValues) => rt.invoke(command, run, toOptions(user, flags)))
}

export const toOptions = (user: string, flags: OptionValues): MemberRemoveOptions => ({ project: flags.project, user })

export async function run(options: MemberRemoveOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('removeProjectMember', { id: ref, user_id: await userId(api, options.user) }))
  status(deps.io, `Removed ${options.user} from ${ref}`)
}
