// collab config list: every setting as key=value (gh's format), or one JSON object.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { CONFIG_KEYS, getConfigValue, type ConfigKey } from '../../src/cli/config-keys.js'
import type { Deps } from '../../src/cli/factory.js'
import { withHostKey } from './host-option.js'

export interface ListOptions {
  host?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withHostKey(group.command('list').alias('ls').description('Print every setting')))
    .action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({ host: flags.host, json: flags.json === true })

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const config = await deps.config()
  const keys = (Object.keys(CONFIG_KEYS) as ConfigKey[]).filter((key) => options.host === undefined || CONFIG_KEYS[key].perHost)
  const values = Object.fromEntries(keys.map((key) => [key, getConfigValue(config, key, options.host)]))
  if (options.json) deps.io.stdout.write(`${JSON.stringify(values, null, 2)}\n`)
  else for (const [key, value] of Object.entries(values)) deps.io.stdout.write(`${key}=${value}\n`)
}
