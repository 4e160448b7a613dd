// collab project members edit <user>: change a member's access level or expiry date.
import type { Command, OptionValues } from 'commander'
import { accessLevelName } from '../../../src/cli/access-level.js'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { projectPath } from '../../../src/client/paths.js'
import { reportWrite } from '../shared.js'
import { accessLevelOption, expiresOption, onProjectMembers, userId, type Member } from './shared.js'

export interface MemberEditOptions {
  project?: string
  user: string
  accessLevel: number
  expiresAt?: string
  json: boolean
}

export function register(members: Command, rt: Runtime): void {
  const command = members
    .command('edit')
    .description("Change a member's access level")
    .argument('<user>', 'user id or username')
    .addOption(accessLevelOption(true))
    .addOption(expiresOption())
  withJson(onProjectMembers(command)).action((user: string, flags: OptionValues) => rt.invoke(command, run, toOptions(user, flags)))
}

export const toOptions = (user: string, flags: OptionValues): MemberEditOptions => ({
  project: flags.project,
  user,
  accessLevel: flags.accessLevel,
  expiresAt: flags.expiresAt,
  json: flags.json === true,
})

export async function run(options: MemberEditOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const user = await userId(api, options.user)
  const { data, response } = await api.send<Member>('PUT', projectPath(ref, 'members', user), {
    access_level: options.accessLevel,
    expires_at: options.expiresAt,
  })
  reportWrite(deps.io, options.json, response, `${data.username} is now ${accessLevelName(data.access_level)} in ${ref}`)
}
