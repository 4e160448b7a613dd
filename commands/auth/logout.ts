// collab auth logout: forget the token of a host.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { normalizeHost, removeHost, writeConfig } from '../../src/cli/config.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'

export interface LogoutOptions {
  host?: string
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('logout')
    .description('Remove the stored token of an instance')
    .option('--host <url>', 'the instance (needed when several are stored)')
    .action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): LogoutOptions => ({ host: flags.host })

export async function run(options: LogoutOptions, deps: Deps): Promise<void> {
  const config = await deps.config()
  const hosts = Object.keys(config.hosts)
  if (hosts.length === 0) throw failure('not logged in to any instance')
  const host = options.host
    ? normalizeHost(options.host)
    : hosts.length === 1 ? hosts[0] : await deps.prompter.select('Log out of which instance?', '--host', hosts)
  const user = config.hosts[host]?.user
  const inKeyring = config.hosts[host]?.token_in_keyring === true
  if (!removeHost(config, host)) throw failure(`not logged in to ${host}`)
  if (inKeyring) await (await import('../../src/cli/keyring.js')).deleteFromKeyring(deps.io.env, host)
  await writeConfig(await deps.configDir, config)
  status(deps.io, `Logged out of ${host}${user ? ` (${user})` : ''}`)
}
