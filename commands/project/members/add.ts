// collab project members add <user>: give a user access to a project.
import type { Command, OptionValues } from 'commander'
import { accessLevelName } from '../../../src/cli/access-level.js'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { projectPath } from '../../../src/client/paths.js'
import { reportWrite } from '../shared.js'
import { accessLevelOption, expiresOption, onProjectMembers, userId, type Member } from './shared.js'

export interface MemberAddOptions {
  project?: string
  user: string
  accessLevel: number
  expiresAt?: string
  json: boolean
}

export function register(members: Command, rt: Runtime): void {
  const command = members
    .command('add')
    .description('Add a member to a project')
    .argument('<user>', 'user id or username')
    .addOption(accessLevelOption(true))
    .addOption(expiresOption())
  withJson(onProjectMembers(command)).action((user: string, flags: OptionValues) => rt.invoke(command, run, toOptions(user, flags)))
}

export const toOptions = (user: string, flags: OptionValues): MemberAddOptions => ({
  project: flags.project,
  user,
  accessLevel: flags.accessLevel,
  expiresAt: flags.expiresAt,
  json: flags.json === true,
})

export async function run(options: MemberAddOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const { data, response } = await api.send<Member>('POST', projectPath(ref, 'members'), {
    user_id: await userId(api, options.user),
    access_level: options.accessLevel,
    expires_at: options.expiresAt,
  })
  reportWrite(deps.io, options.json, response, `Added ${data.username} to ${ref} as ${accessLevelName(data.access_level)}`)
}
