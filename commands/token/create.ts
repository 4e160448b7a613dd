// collab token create <name>: a project (or --group) access token; prints the token, which is shown only this once.
import type { Command, OptionValues } from 'commander'
import { collect, withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from '../label/owner.js'
import { accessLevel, expiresAt, lifetime, withLifetime, type AccessToken, type Lifetime } from './shared.js'

export interface CreateOptions extends OwnerOptions, Lifetime { name: string; accessLevel?: number; scopes: string[]; description?: string; json: boolean }

// glab's defaults: read_repository, 30 days.
const DEFAULT_SCOPES = ['read_repository']
const DEFAULT_DAYS = 30

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withOwner(withLifetime(group.command('create').alias('new').description('Create an access token (printed once)')
    .argument('<name>', 'the token name')
    .option('-A, --access-level <level>', "the token's role: guest, reporter, developer, maintainer (the server's default), owner", accessLevel)
    .option('-S, --scope <scope>', 'a scope (repeat or comma-separate; default read_repository)', collect)
    .option('--description <text>', 'what the token is for')), 'access tokens'))
  command.action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): CreateOptions => ({
  project: flags.project, group: flags.group, name, accessLevel: flags.accessLevel,
  scopes: (flags.scope as string[] | undefined)?.flatMap((s) => s.split(',')).filter(Boolean) ?? DEFAULT_SCOPES,
  description: flags.description, ...lifetime(flags), json: flags.json === true,
})

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  const expires = expiresAt(deps.io, options, DEFAULT_DAYS)
  const { api, group, id } = await ownerTarget(options, deps)
  const { data, response } = await api.send<AccessToken & { token: string }>(route(group ? 'createGroupAccessToken' : 'createProjectAccessToken', { id }), {
    name: options.name, scopes: options.scopes, access_level: options.accessLevel, expires_at: expires, description: options.description,
  })
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${data.token}\n`)
  status(deps.io, `Created access token ${options.name} (${data.id}) in ${id}, expiring ${data.expires_at}`)
}
