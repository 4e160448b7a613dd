// What the runner verbs share: where the runner's configuration lives, and a connection that describes this machine.
import { arch, hostname, platform } from 'node:os'
import type { Command } from 'commander'
import { configDirFrom } from '../../src/cli/config.js'
import type { Deps } from '../../src/cli/factory.js'
import { RunnerConnection } from '../../src/runner/connection.js'
import { readRunnerConfig, runnerConfigPath, type ExecutorKind, type RunnerConfig } from '../../src/runner/config.js'

export const withConfigFile = (command: Command) =>
  command.option('-c, --config <file>', "the runner's configuration file (default: runner.json in collab's config directory)")

export async function configFile(deps: Deps, given: string | undefined): Promise<string> {
  return given ?? runnerConfigPath(await configDirFrom(deps.io.env))
}

export async function loadConfig(deps: Deps, given: string | undefined): Promise<{ file: string; config: RunnerConfig }> {
  const file = await configFile(deps, given)
  return { file, config: await readRunnerConfig(file) }
}

export const connectionTo = (url: string, executor: ExecutorKind, name = hostname()) =>
  new RunnerConnection(url, { name, executor: executor === 'sandbox' ? 'shell+bubblewrap' : 'shell', platform: platform(), architecture: arch() })
