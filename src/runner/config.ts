// The runner's configuration: the servers it takes jobs from, each with its runner token (gitlab-runner keeps the
// same in config.toml). Written 0600 in a 0700 directory, through a temporary file, so a token is never half written
// nor readable by others; jobs never see this file (the sandbox does not mount it).
import { promises as fs } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import { CollabError } from '../core/errors.js'

export type ExecutorKind = 'sandbox' | 'shell'

export interface RunnerEntry {
  name: string
  url: string
  /** The runner's authentication token (glrt-…). */
  token: string
  id?: number
  executor: ExecutorKind
}

export interface RunnerConfig {
  /** Jobs at the same time, over all entries. */
  concurrency: number
  runners: RunnerEntry[]
}

export const runnerConfigPath = (configDir: string) => join(configDir, 'runner.json')

export async function readRunnerConfig(file: string): Promise<RunnerConfig> {
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { concurrency: 1, runners: [] }
    throw err
  }
  try {
    const data = JSON.parse(text) as Partial<RunnerConfig>
    return { concurrency: data.concurrency ?? 1, runners: (data.runners ?? []).map((r) => ({ ...r, executor: r.executor ?? 'sandbox' })) }
  } catch (err) {
    throw new CollabError('RUNNER_CONFIG', `cannot read ${file}: ${(err as Error).message}`)
  }
}

export async function writeRunnerConfig(file: string, config: RunnerConfig): Promise<void> {
  await fs.mkdir(dirname(file), { recursive: true, mode: 0o700 })
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
  await fs.writeFile(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
  await fs.chmod(temp, 0o600)
  await fs.rename(temp, file)
}
