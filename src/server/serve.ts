// `collab serve`: boot the data directory, listen, give back the memory a burst of requests left (compact-when-quiet.ts),
// and shut down cleanly.
import net from 'node:net'
import { cpus } from 'node:os'
import { realpathSync } from 'node:fs'
import { dirname } from 'node:path'
import { streamLogger } from '../core/logger.js'
import { sandboxUnavailable } from '../core/sandbox-probe.js'
import { createServer } from './app.js'
import { boot } from './boot.js'
import { compactAfterBursts } from './compact-when-quiet.js'
import { startRunnerChild, type RunnerChild } from './runner-child.js'
import { prepareEmbeddedRunner } from './services/ci/runners.js'
import { closeDatabase } from './store/db.js'

export interface ServeOptions {
  host: string
  port: number
  dataDir: string
  rootToken?: string
  rootPassword?: string
  /** Off: every GET is computed afresh (for measuring, or to rule the cache out when debugging). */
  responseCache?: boolean
  /** Addresses of reverse proxies whose X-Forwarded-Proto is believed. */
  trustedProxies?: readonly string[]
  /** An empty database migrated at build time, copied in when the data directory has none (boot.ts). */
  migratedDatabase?: string
  log: (line: string) => void
  /**
   * The CI runner started as a child process (`collab runner run`, through `command`: node and collab's script): on
   * unless `enabled` is false, one job per core unless `concurrency` says otherwise.
   */
  runner?: { enabled?: boolean; concurrency?: number; command?: readonly string[] }
}

/**
 * Fails as listen would (EADDRINUSE, EACCES) before anything is created: a busy port must not leave behind a new
 * database and a root token that is never shown. Port 0 always binds.
 */
export async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return
  const probe = net.createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()))
  })
}

const RUNNER_DELAY_MS = 1000

export async function startServer(opts: ServeOptions) {
  await checkPortFree(opts.port, opts.host)
  const log = streamLogger(opts.log)
  const { app, root } = boot({
    dataDir: opts.dataDir, log, rootToken: opts.rootToken, rootPassword: opts.rootPassword,
    responseCache: opts.responseCache, trustedProxies: opts.trustedProxies, migratedDatabase: opts.migratedDatabase,
  })
  const server = createServer(app)
  let url: string
  try {
    ;({ url } = await server.listen(opts.port, opts.host))
  } catch (err) {
    closeDatabase(app.db)
    throw err
  }
  // Here and not in createServer: test servers share their process with the tests, which need no collections forced.
  const stopCompaction = compactAfterBursts()
  const command = opts.runner?.command
  let runner: RunnerChild | undefined
  let stopping = false
  let startNow = () => {}
  const closing = new Promise<void>((resolve) => (startNow = resolve))
  // The sandbox probe and the runner's spawn hold the main thread for tens of milliseconds (node forks a process of the
  // server's size): they wait for the first answer, which is what a script that starts `collab serve` waits for, or for
  // a quiet second without one. A pipeline created meanwhile waits in `pending` as it would for any runner.
  const runnerStarted = opts.runner?.enabled !== false && command
    ? Promise.race([server.firstAnswer, closing, new Promise<void>((resolve) => setTimeout(resolve, RUNNER_DELAY_MS).unref())])
      .then(async () => {
        if (stopping) return
        runner = await startEmbeddedRunner(app, { command, url: connectableUrl(url), dataDir: opts.dataDir, concurrency: opts.runner?.concurrency, log: opts.log })
      })
      .catch((err: unknown) => opts.log(`CI: the built-in runner did not start: ${err instanceof Error ? err.message : String(err)}`))
    : Promise.resolve()
  return {
    url: connectableUrl(url),
    dataDir: opts.dataDir,
    rootTokenCreated: root.created,
    rootToken: root.token,
    runnerPid: () => runner?.pid(),
    /** Settles once the built-in runner has started (or will not). */
    runnerStarted,
    async close() {
      stopping = true
      stopCompaction()
      startNow()
      await runnerStarted
      // The runner first: it reports the jobs it stops while the server still answers.
      await runner?.stop()
      await server.close()
      closeDatabase(app.db)
    },
  }
}

export interface EmbeddedRunnerOptions {
  /** How to run collab itself: node and its script. */
  command: readonly string[]
  url: string
  /** Hidden from jobs; their working directories go under it (app.layout.builds). */
  dataDir: string
  /** Jobs at the same time; one per core by default. */
  concurrency?: number
  log: (line: string) => void
  /** The runner's HOME (hidden from sandboxed jobs, a shell job's HOME); the server's own by default. */
  home?: string
  /**
   * Without a sandbox, run every pipeline anyway, unsandboxed: for test servers, whose pipelines are the tests' own.
   * Off, such a runner takes administrators' pipelines only.
   */
  unsandboxedForAll?: boolean
}

/**
 * The instance runner `collab serve` runs as its child (test servers too). Without a sandbox it cannot keep a job from
 * the server's data, so it takes administrators' pipelines only, and says how to run the rest.
 */
export async function startEmbeddedRunner(app: ReturnType<typeof boot>['app'], o: EmbeddedRunnerOptions): Promise<RunnerChild> {
  const why = await sandboxUnavailable()
  const { token } = prepareEmbeddedRunner({ app }, { adminPipelinesOnly: why !== null && !o.unsandboxedForAll })
  if (why && !o.unsandboxedForAll) {
    o.log(`CI: ${why}. The built-in runner runs only pipelines started by administrators, unsandboxed; other pipelines wait for a runner that isolates jobs (install bubblewrap and restart, or attach one: collab runner register --url ${o.url} --token glrt-…)`)
  }
  return startRunnerChild({
    command: o.command, url: o.url, token, executor: why ? 'shell' : 'sandbox', concurrency: o.concurrency ?? cpus().length,
    hide: [o.dataDir], buildsDir: app.layout.builds, log: app.log, home: o.home,
    // collab's own install (the script's package), readable wherever it lies, so a job can run `collab` as README says.
    expose: o.command[1] ? [dirname(dirname(realpathSync(o.command[1])))] : [],
  })
}

/** A server bound to every interface is reached, and stored in the CLI config, through loopback. */
export function connectableUrl(url: string) {
  return url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:')
}
