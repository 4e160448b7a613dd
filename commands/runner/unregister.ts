// collab runner unregister NAME|--all: removes a runner from its server (DELETE /runners) and from the configuration.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { writeRunnerConfig } from '../../src/runner/config.js'
import { connectionTo, loadConfig, withConfigFile } from './shared.js'

export interface UnregisterOptions { name?: string; all: boolean; config?: string }

export function register(group: Command, rt: Runtime): void {
  const command = withConfigFile(group.command('unregister').description('Remove a runner from its server and the configuration'))
    .argument('[name]', 'the runner, by the name `collab runner list` shows').option('--all', 'every runner of the configuration')
  command.action((name: string | undefined, flags: OptionValues) => rt.invoke(command, run, { name, all: flags.all === true, config: flags.config }))
}

export async function run(options: UnregisterOptions, deps: Deps): Promise<void> {
  if (!options.name && !options.all) throw usageError('name a runner, or give --all')
  const { file, config } = await loadConfig(deps, options.config)
  const gone = config.runners.filter((r) => options.all || r.name === options.name)
  if (!gone.length) throw failure(`no runner named '${options.name}' in ${file}`, "see 'collab runner list'")
  for (const r of gone) {
    await connectionTo(r.url, r.executor, r.name).unregister(r.token)
    status(deps.io, `Unregistered runner ${r.name} from ${r.url}`)
  }
  await writeRunnerConfig(file, { ...config, runners: config.runners.filter((r) => !gone.includes(r)) })
}
