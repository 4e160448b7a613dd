// collab project members edit <user>: change a member's access level or end date.
import type { Command, OptionValues } from 'commander'
import { accessLevelName } from '../../../src/cli/access-level.js'
import type { Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { reportWrite } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { memberLevelOptions, userId, withMemberLevel, type MemberLevelOptions } from './shared.js'

export function register(members: Command, rt: Runtime): void {
  const command = withMemberLevel(members.command('edit').description("Change a member's access level"))
    .action((user: string, flags: OptionValues) => rt.invoke(command, run, memberLevelOptions(user, flags)))
}

export async function run(options: MemberLevelOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const user = await userId(api, options.user)
  const { data, response } = await api.send(route('editProjectMember', { id: ref, user_id: user }), {
    access_level: options.accessLevel,
    expires_at: options.expiresAt,
  })
  reportWrite(deps.io, options.json, response, `${data.username} is now ${accessLevelName(data.access_level)} in ${ref}`)
}
