// collab auth token: print the token the other commands would send to the host (gh auth token), for scripts and curl.
import type { Command, OptionValues } from 'commander'
import { withConnection, type Runtime } from '../../src/cli/command.js'
import { authRequired } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'

export interface TokenOptions { host?: string; token?: string }

export function register(group: Command, rt: Runtime): void {
  const command = withConnection(group.command('token').description('Print the token in use (gh auth token)'))
  command.action((flags: OptionValues) => rt.invoke(command, run, { host: flags.host, token: flags.token } satisfies TokenOptions))
}

export async function run(options: TokenOptions, deps: Deps): Promise<void> {
  // The same resolution as every command's, OAuth renewal included.
  const credentials = (await deps.api()).credentials()
  if (!credentials) throw authRequired('no token is in use', "run 'collab auth login'")
  deps.io.stdout.write(`${credentials.token}\n`)
}
