// collab runner verify: asks each configured server whether it still knows the runner; --delete drops those it does not.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { writeRunnerConfig } from '../../src/runner/config.js'
import { connectionTo, loadConfig, withConfigFile } from './shared.js'

export interface VerifyOptions { config?: string; delete: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withConfigFile(group.command('verify').description('Check that each runner is still known to its server'))
    .option('--delete', 'remove runners the server no longer knows from the configuration')
  command.action((flags: OptionValues) => rt.invoke(command, run, { config: flags.config, delete: flags.delete === true }))
}

export async function run(options: VerifyOptions, deps: Deps): Promise<number> {
  const { file, config } = await loadConfig(deps, options.config)
  const alive = []
  for (const r of config.runners) {
    const ok = await connectionTo(r.url, r.executor, r.name).verify(r.token)
    deps.io.stdout.write(`${r.name}\t${r.url}\t${ok ? 'is valid' : 'is removed'}\n`)
    if (ok) alive.push(r)
  }
  if (options.delete && alive.length !== config.runners.length) await writeRunnerConfig(file, { ...config, runners: alive })
  return alive.length === config.runners.length ? 0 : 1
}
