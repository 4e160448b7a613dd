// collab config set <key> <value>: change a setting, globally or for one host.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { writeConfig } from '../../src/cli/config.js'
import { checkKey, setConfigValue } from '../../src/cli/config-keys.js'
import type { Deps } from '../../src/cli/factory.js'
import { withHostKey } from './host-option.js'

export interface SetOptions {
  key: string
  value: string
  host?: string
}

export function register(group: Command, rt: Runtime): void {
  const command = withHostKey(
    group.command('set').description('Change a setting').argument('<key>', 'host, git_protocol or editor').argument('<value>', 'the new value'),
  ).action((key: string, value: string, flags: OptionValues) => rt.invoke(command, run, toOptions(key, value, flags)))
}

export const toOptions = (key: string, value: string, flags: OptionValues): SetOptions => ({ key, value, host: flags.host })

export async function run(options: SetOptions, deps: Deps): Promise<void> {
  const key = checkKey(options.key, options.host)
  const config = await deps.config()
  setConfigValue(config, key, options.value, options.host)
  await writeConfig(await deps.configDir, config)
}
