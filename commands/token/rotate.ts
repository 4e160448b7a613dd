// collab token rotate <token>: a new secret for a token (by id or name), the old one revoked; prints the new token.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from '../label/owner.js'
import { expiresAt, findToken, lifetime, withLifetime, type AccessToken, type Lifetime } from './shared.js'

export interface RotateOptions extends OwnerOptions, Lifetime { token: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withOwner(withLifetime(group.command('rotate').description('Rotate an access token: a new token, the old one revoked')
    .argument('<token>', 'the token id, or the name of an active token')), 'access tokens'))
  command.action((token: string, flags: OptionValues) => rt.invoke(command, run, toOptions(token, flags)))
}

export const toOptions = (token: string, flags: OptionValues): RotateOptions => ({ project: flags.project, group: flags.group, token, ...lifetime(flags), json: flags.json === true })

export async function run(options: RotateOptions, deps: Deps): Promise<void> {
  // Without a lifetime the server's rule applies: a rotated token lives a week.
  const expires = expiresAt(deps.io, options)
  const owner = await ownerTarget(options, deps)
  const old = await findToken(owner, options.token)
  const { data, response } = await owner.api.send<AccessToken & { token: string }>(
    route(owner.group ? 'rotateGroupAccessToken' : 'rotateProjectAccessToken', { id: owner.id, token_id: String(old.id) }), { expires_at: expires })
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${data.token}\n`)
  status(deps.io, `Rotated access token ${old.name} in ${owner.id}: ${old.id} revoked, ${data.id} expiring ${data.expires_at}`)
}
