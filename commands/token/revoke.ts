// collab token revoke <token>: revoke a project's (or --group's) access token, by id or name; its bot user goes with it.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from '../label/owner.js'
import { findToken } from './shared.js'

export interface RevokeOptions extends OwnerOptions { token: string }

export function register(group: Command, rt: Runtime): void {
  const command = withOwner(group.command('revoke').alias('rm').description('Revoke an access token')
    .argument('<token>', 'the token id, or the name of an active token'), 'access tokens')
  command.action((token: string, flags: OptionValues) => rt.invoke(command, run, toOptions(token, flags)))
}

export const toOptions = (token: string, flags: OptionValues): RevokeOptions => ({ project: flags.project, group: flags.group, token })

export async function run(options: RevokeOptions, deps: Deps): Promise<void> {
  const owner = await ownerTarget(options, deps)
  const token = await findToken(owner, options.token)
  await owner.api.call(route(owner.group ? 'revokeGroupAccessToken' : 'revokeProjectAccessToken', { id: owner.id, token_id: String(token.id) }))
  status(deps.io, `Revoked access token ${token.name} (${token.id}) in ${owner.id}`)
}
