// collab serve's CI runner: `collab runner run` as a child process that takes jobs over the runner protocol like any
// other runner, so the server process never runs job code. It gets the host basics and its token, none of the
// server's other environment; it is restarted if it dies, and stopped (its jobs reported) before the server closes.
import { spawn, type ChildProcess } from 'node:child_process'
import { serverHostEnv } from '../core/child-env.js'
import type { Logger } from '../core/logger.js'

export interface RunnerChildOptions {
  /** How to run collab itself: node and its script. */
  command: readonly string[]
  url: string
  token: string
  executor: 'sandbox' | 'shell'
  concurrency?: number
  /** Directories jobs must not see: the data directory. */
  hide: readonly string[]
  /** Directories jobs may read though hidden: collab's own install, so a job can run `collab`. */
  expose?: readonly string[]
  buildsDir: string
  log: Logger
  /** The runner's HOME instead of the server's (test servers give it one in their data directory). */
  home?: string
}

const MAX_BACKOFF_MS = 30_000
const STOP_GRACE_MS = 15_000

export interface RunnerChild {
  /** The process now running, if any (tests look at its descendants). */
  pid(): number | undefined
  stop(): Promise<void>
}

export function startRunnerChild(o: RunnerChildOptions): RunnerChild {
  const args = [...o.command.slice(1), 'runner', 'run', '--url', o.url, '--executor', o.executor, '--builds-dir', o.buildsDir, '--name', 'embedded']
  if (o.concurrency) args.push('--concurrency', String(o.concurrency))
  for (const dir of o.hide) args.push('--hide', dir)
  for (const dir of o.expose ?? []) args.push('--expose', dir)
  let child: ChildProcess | undefined
  let stopping = false
  let backoff = 1000
  let restart: NodeJS.Timeout | undefined

  const launch = () => {
    const started = performance.now()
    const c = spawn(o.command[0], args, { env: { ...serverHostEnv(), ...(o.home ? { HOME: o.home } : {}), COLLAB_RUNNER_TOKEN: o.token }, stdio: ['ignore', 'ignore', 'pipe'] })
    child = c
    // The runner's banner and stop notice are its own business; its warnings and errors are the server's.
    c.stderr?.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n')) if (/^(warning|error): /.test(line)) o.log.warn(`runner: ${line}`)
    })
    c.on('error', (err) => o.log.error('the CI runner could not be started', err))
    c.on('exit', (code, signal) => {
      if (child === c) child = undefined
      if (stopping) return
      // A runner that ran a while is restarted at once; one that keeps failing, less and less often.
      backoff = performance.now() - started > MAX_BACKOFF_MS ? 1000 : Math.min(backoff * 2, MAX_BACKOFF_MS)
      o.log.warn(`the CI runner exited (${signal ?? `code ${code}`}); starting it again in ${Math.round(backoff / 1000)} s`)
      restart = setTimeout(launch, backoff)
      restart.unref()
    })
  }
  launch()

  return {
    pid: () => child?.pid,
    async stop() {
      stopping = true
      clearTimeout(restart)
      const c = child
      if (!c || c.exitCode !== null) return
      const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()))
      c.kill('SIGTERM')
      const timer = setTimeout(() => c.kill('SIGKILL'), STOP_GRACE_MS)
      await exited
      clearTimeout(timer)
    },
  }
}
