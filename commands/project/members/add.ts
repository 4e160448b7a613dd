// collab project members add <user>: give a user access to a project.
import type { Command, OptionValues } from 'commander'
import { accessLevelName } from '../../../src/cli/access-level.js'
import type { Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { reportWrite } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { memberLevelOptions, userId, withMemberLevel, type MemberLevelOptions } from './shared.js'

export function register(members: Command, rt: Runtime): void {
  const command = withMemberLevel(members.command('add').description('Add a member to a project'))
    .action((user: string, flags: OptionValues) => rt.invoke(command, run, memberLevelOptions(user, flags)))
}

export async function run(options: MemberLevelOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const { data, response } = await api.send(route('addProjectMember', { id: ref }), {
    user_id: await userId(api, options.user),
    access_level: options.accessLevel,
    expires_at: options.expiresAt,
  })
  reportWrite(deps.io, options.json, response, `Added ${data.username} to ${ref} as ${accessLevelName(data.access_level)}`)
}
