// collab config get <key>: print one setting (its default when unset).
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { checkKey, getConfigValue } from '../../src/cli/config-keys.js'
import type { Deps } from '../../src/cli/factory.js'
import { withHostKey } from './host-option.js'

export interface GetOptions {
  key: string
  host?: string
}

export function register(group: Command, rt: Runtime): void {
  const command = withHostKey(group.command('get').description('Print the value of a setting').argument('<key>', 'host, git_protocol, editor or browser'))
    .action((key: string, flags: OptionValues) => rt.invoke(command, run, toOptions(key, flags)))
}

export const toOptions = (key: string, flags: OptionValues): GetOptions => ({ key, host: flags.host })

export async function run(options: GetOptions, deps: Deps): Promise<void> {
  const key = checkKey(options.key, options.host)
  deps.io.stdout.write(`${getConfigValue(await deps.config(), key, options.host)}\n`)
}
