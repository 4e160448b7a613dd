// collab runner run: takes jobs from every configured server and runs them, in bubblewrap unless a runner says
// `shell`; stops on SIGINT/SIGTERM after telling the server what became of the jobs it was running.
import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Command, OptionValues } from 'commander'
import { positiveInt, type Runtime } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { serverHostEnv } from '../../src/core/child-env.js'
import { streamLogger } from '../../src/core/logger.js'
import type { ExecutorKind, RunnerConfig, RunnerEntry } from '../../src/runner/config.js'
import { ShellExecutor } from '../../src/runner/executor/shell.js'
import { HttpJobSource } from '../../src/runner/http-source.js'
import { sandboxUnavailable } from '../../src/runner/sandbox.js'
import { connectionTo, loadConfig, withConfigFile } from './shared.js'

export interface RunOptions {
  config?: string
  /** One runner given on the command line instead of the configuration: its token comes from COLLAB_RUNNER_TOKEN. */
  url?: string
  executor?: ExecutorKind
  name?: string
  concurrency?: number
  buildsDir?: string
  /** Directories jobs must not see besides the configuration's and HOME (collab serve passes its data directory). */
  hide: string[]
  /** Directories jobs read though hidden otherwise (collab serve passes collab's own install). */
  expose: string[]
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

export function register(group: Command, rt: Runtime): void {
  const command = withConfigFile(group.command('run').description('Take jobs from the configured servers and run them until stopped'))
    .option('--concurrency <n>', 'jobs at the same time, over all runners (default: the configuration, else 1)', positiveInt)
    .option('--builds-dir <dir>', "where jobs' working directories go (default: a directory under the system's temp dir)")
    .option('--hide <dir>', 'a directory jobs must not see (repeatable); the configuration and HOME are always hidden', collect)
    .option('--expose <dir>', 'a directory jobs may read though it is hidden or under /tmp (repeatable; read-only)', collect)
    .option('--url <url>', 'run one runner for this server instead of the configuration, its token in COLLAB_RUNNER_TOKEN')
    .option('--executor <kind>', 'with --url: sandbox (default) or shell', 'sandbox')
    .option('--name <name>', 'with --url: the name the runner reports', 'runner')
  command.action((flags: OptionValues) => rt.invoke(command, run, {
    config: flags.config, concurrency: flags.concurrency, buildsDir: flags.buildsDir, hide: flags.hide ?? [], expose: flags.expose ?? [],
    url: flags.url, executor: flags.executor, name: flags.name,
  }))
}

export async function run(options: RunOptions, deps: Deps): Promise<number> {
  const { io } = deps
  const say = (line: string) => io.stderr.write(`${line}\n`)
  let onRefused: (name: string) => void = () => undefined
  const { file, config } = options.url ? await given(options, deps) : await loadConfig(deps, options.config)
  if (!config.runners.length) throw failure(`no runner is configured in ${file}`, 'add one with: collab runner register --url URL --token glrt-…')
  const sandboxed = config.runners.filter((r) => r.executor === 'sandbox')
  const why = sandboxed.length ? await sandboxUnavailable() : null
  if (why) {
    throw failure(`${why}: jobs of ${sandboxed.map((r) => r.name).join(', ')} cannot be isolated`,
      "install bubblewrap (Debian: apt-get install bubblewrap), or register the runner with --executor shell to run jobs unisolated as this user")
  }
  let refused = 0
  const stopped = new Promise<string>((resolve) => {
    const stop = io.onSignal((signal) => {
      stop()
      resolve(signal)
    })
    // A runner whose server refuses its token is removed there; when none is left, there is nothing to run for.
    onRefused = (name: string) => {
      say(`error: ${name}: the server refuses this runner's token (removed, or its token reset); it takes no more jobs`)
      if (++refused === config.runners.length) resolve('every runner refused')
    }
  })
  const buildsDir = options.buildsDir ?? join(tmpdir(), `collab-runner-${process.pid}`)
  await mkdir(buildsDir, { recursive: true, mode: 0o700 })
  const home = io.env.HOME
  // The configuration's directory holds the runners' tokens.
  const hide = [...new Set([dirname(file), ...(home ? [home] : []), ...options.hide])]
  const log = streamLogger(say)
  const perRunner = Math.max(1, Math.floor((options.concurrency ?? config.concurrency) / config.runners.length))
  const executors = config.runners.map((r: RunnerEntry) => new ShellExecutor(new HttpJobSource(connectionTo(r.url, r.executor, r.name), r.token), {
    buildsDir: join(buildsDir, r.name.replace(/[^\w.-]+/g, '_')), concurrency: perRunner, runnerId: r.name, log, pollMs: 1000,
    onRefused: () => onRefused(r.name), collabCommand: io.self,
    isolation: r.executor === 'sandbox' ? { kind: 'sandbox', hide, expose: options.expose } : { kind: 'shell', hostEnv: serverHostEnv() },
  }))
  // The executors' timers do not hold the process (the embedded runner lives in the server's): this does, until a signal.
  const alive = setInterval(() => undefined, 3_600_000)
  for (const e of executors) e.start()
  say(`collab runner: ${config.runners.map((r) => `${r.name} (${r.url}, ${r.executor})`).join(', ')}; jobs in ${buildsDir}`)
  const reason = await stopped
  say(`${reason}: stopping; running jobs are failed and reported`)
  await Promise.all(executors.map((e) => e.stop()))
  clearInterval(alive)
  return refused === config.runners.length ? 1 : 0
}

/** --url with COLLAB_RUNNER_TOKEN: how `collab serve` starts its runner, a token never written to disk nor put in argv. */
async function given(options: RunOptions, deps: Deps): Promise<{ file: string; config: RunnerConfig }> {
  const token = deps.io.env.COLLAB_RUNNER_TOKEN
  if (!token) throw usageError('--url needs the runner token in COLLAB_RUNNER_TOKEN')
  if (options.executor !== 'sandbox' && options.executor !== 'shell') throw usageError(`--executor: expected sandbox or shell, got '${options.executor}'`)
  const { file } = await loadConfig(deps, options.config)
  const runner = { name: options.name ?? 'runner', url: options.url!, token, executor: options.executor }
  return { file, config: { concurrency: options.concurrency ?? 1, runners: [runner] } }
}
