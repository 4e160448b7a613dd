// collab runner list: the runners of the configuration (tokens shortened).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { loadConfig, withConfigFile } from './shared.js'

export interface ListOptions { config?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withConfigFile(group.command('list').alias('ls').description('List the runners in the configuration')))
  command.action((flags: OptionValues) => rt.invoke(command, run, { config: flags.config, json: flags.json === true }))
}

/** A token is shown by its first characters only, as gitlab-runner list does. */
const short = (token: string) => `${token.slice(0, 8)}…`

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const { file, config } = await loadConfig(deps, options.config)
  const rows = config.runners.map((r) => ({ name: r.name, url: r.url, token: short(r.token), executor: r.executor }))
  if (options.json) {
    deps.io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`)
    return
  }
  deps.io.stderr.write(`Configuration: ${file}\n`)
  for (const r of rows) deps.io.stdout.write(`${r.name}\t${r.url}\t${r.token}\t${r.executor}\n`)
}
