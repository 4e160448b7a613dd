// collab serve: run the embedded server, log this CLI in to it, log requests on a terminal, stop cleanly on SIGINT/SIGTERM.
import { isIP } from 'node:net'
import { delimiter, join, resolve } from 'node:path'
import { InvalidArgumentError, type Command, type OptionValues } from 'commander'
import { defaultDataDir } from '../src/core/paths.js'
import { VERSION } from '../src/core/version.js'
import { positiveInt, type Runtime } from '../src/cli/command.js'
import { readConfig, saveHostToken, type ConfigFile } from '../src/cli/config.js'
import { failure } from '../src/cli/errors.js'
import type { Deps } from '../src/cli/factory.js'
import type { Env, IO } from '../src/cli/io.js'

export const summary = 'Run a GitLab-compatible server on this machine'

export interface ServeOptions {
  host: string
  port: number
  dataDir: string
  rootToken?: string
  rootPassword?: string
  responseCache: boolean
  trustedProxies: string[]
  /** No request log even on a terminal. */
  quiet: boolean
  /** Make this server the CLI's default host even when another one is (a scratch server otherwise leaves it alone). */
  login: boolean
  /** `enabled` is false with --no-runner; `command` runs collab again, for the runner's child process. */
  runner: { enabled?: boolean; concurrency?: number; command?: readonly string[] }
}

/** `--trusted-proxy` may be given several times; each must be an IP address, as the peer address is compared to it. */
function proxyAddress(value: string, previous: string[] = []): string[] {
  if (isIP(value) === 0) throw new InvalidArgumentError('expected an IP address')
  return [...previous, value]
}

function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('expected a port number (0-65535)')
  return Number(value)
}

export function register(command: Command, rt: Runtime): void {
  command
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', port, 3000)
    .option('--data <dir>', 'data directory (default: the platform data directory)')
    .option('--root-token <token>', 'token for the administrator root when the database is created (or COLLAB_ROOT_TOKEN; COLLAB_ROOT_PASSWORD sets the password)')
    .option('--trusted-proxy <address>', 'believe X-Forwarded-Proto from this reverse proxy (repeatable)', proxyAddress)
    .option('--no-response-cache', 'compute every GET afresh instead of answering repeats from memory until the next write')
    .option('-q, --quiet', 'do not log requests (they are logged when stdout is a terminal)')
    .option('--login', "make this server the CLI's default host (done anyway on the default data directory or when none is set)")
    .option('--no-runner', 'do not start a CI runner (pipelines wait for runners you attach: collab runner, gitlab-runner)')
    .option('--runner-concurrency <n>', 'CI jobs the built-in runner runs at the same time (default: the number of cores)', positiveInt)
    .action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags, rt.io.env, rt.io.self)))
}

export const toOptions = (flags: OptionValues, env: Env, self?: readonly string[]): ServeOptions => ({
  host: flags.host,
  port: flags.port,
  dataDir: flags.data ?? defaultDataDir(),
  rootToken: flags.rootToken ?? (env.COLLAB_ROOT_TOKEN || undefined),
  rootPassword: env.COLLAB_ROOT_PASSWORD || undefined,
  responseCache: flags.responseCache !== false,
  trustedProxies: flags.trustedProxy ?? [],
  quiet: flags.quiet === true,
  login: flags.login === true,
  runner: { enabled: flags.runner !== false, concurrency: flags.runnerConcurrency, command: self },
})

/** EADDRINUSE and EACCES from listen, said as a person would. */
function listenError(err: unknown, options: ServeOptions): unknown {
  const code = (err as NodeJS.ErrnoException).code
  const where = `${options.host}:${options.port}`
  if (code === 'EADDRINUSE') return failure(`port ${options.port} is already in use on ${options.host}`, `is another collab serve running? pick another port with --port N (0 picks a free one)`)
  if (code === 'EACCES') return failure(`not allowed to listen on ${where}`, 'ports below 1024 need privileges; pick another with --port N')
  return err
}

export async function run(options: ServeOptions, deps: Deps): Promise<number> {
  const { io } = deps
  const say = (line: string) => io.stderr.write(`${line}\n`)
  // Listen for signals before anything is printed: a supervisor may stop us the moment it reads the banner.
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    const stop = io.onSignal((received) => {
      stop()
      resolve(received)
    })
  })
  const { startServer } = await import('../src/server/serve.js')
  const server = await startServer({ ...options, log: say }).catch((err: unknown) => {
    throw listenError(err, options)
  })
  const stopLog = io.stdoutIsTTY && !options.quiet ? await logRequests(io) : undefined

  say(`collab ${VERSION} serving ${server.url}`)
  say(`data: ${server.dataDir}`)
  if (server.rootTokenCreated) say(`root token (shown once): ${server.rootTokenCreated}`)
  await logIn(deps, { url: server.url, rootToken: server.rootToken, dataDir: server.dataDir, login: options.login }, say)
  if (!(await onPath(io))) say("'collab' is not on your PATH yet: 'npm run setup' in the collab checkout puts it there (until then: npx collab …)")
  say('press Ctrl-C to stop')

  say(`${await stopped}: finishing requests and closing the database`)
  stopLog?.()
  await server.close()
  return 0
}

interface Started { url: string; rootToken: string | null; dataDir: string; login: boolean }

/**
 * Logs this CLI in to the new server: with the root token it knows, else with a token stored for any host that this
 * server accepts (a restart on another port), else it says how to log in. It becomes the default host only when asked
 * (--login), when there is none, on the default data directory, or when the default is this data directory's earlier
 * start: a scratch `collab serve --port 3005 --data DIR` must not take the CLI away from the user's instance.
 */
async function logIn(deps: Deps, started: Started, say: (line: string) => void): Promise<void> {
  const { url } = started
  const configDir = await deps.configDir
  const config = await readConfig(configDir)
  let found = started.rootToken ? { token: started.rootToken, user: 'root' } : undefined
  if (!found) found = await storedTokenFor(deps, config, url)
  if (!found) {
    say('this data directory was set up on an earlier start, which showed the root token once')
    say(`log in with: collab auth login --host ${url} --token <token>`)
    say('(or restart with --root-token <token> to add a root token of your choosing)')
    return
  }
  const current = config.default_host
  const takeOver = started.login || !current || current === url || resolve(started.dataDir) === resolve(defaultDataDir()) ||
    config.hosts[current]?.serve_data === resolve(started.dataDir)
  // config.json (mode 0600) rather than the OS keyring: whoever reads this user's files can read the data directory this
  // server runs from, so the keyring would guard nothing here; storedTokenFor finds the token on the next start; and
  // the keyring's native module (1.5 MB) stays out of the server's process.
  await saveHostToken(configDir, url, found.token, found.user, takeOver, { serve_data: resolve(started.dataDir) })
  if (takeOver) say(`this CLI is logged in as ${found.user} and now talks to ${url} by default`)
  else say(`this CLI is logged in as ${found.user} here; its default host stays ${current} (use --host ${url}, or restart with --login)`)
  say(`elsewhere: collab auth login --host ${url} --token <token>`)
}

/** Only tokens of this machine's servers (same hostname, any port) are tried: a gitlab.com token never leaves for a port. */
async function storedTokenFor(deps: Deps, config: ConfigFile, url: string): Promise<{ token: string; user: string } | undefined> {
  const here = new URL(url).hostname
  const tokens = [...new Set(Object.entries(config.hosts).filter(([host]) => new URL(host).hostname === here).map(([, h]) => h.token).filter((t): t is string => !!t))]
  for (const token of tokens) {
    const response = await deps.clientFor(url, { token, header: 'PRIVATE-TOKEN', source: 'config' })
      .request('GET', 'user', { throwOnError: false }).catch(() => undefined)
    if (response?.status === 200) return { token, user: (JSON.parse(response.text) as { username: string }).username }
  }
  return undefined
}

/** Whether a `collab` command is on the PATH (after `npm run setup`); `npx collab serve` in the checkout works without. */
async function onPath(io: IO): Promise<boolean> {
  const { promises: fs, constants } = await import('node:fs')
  // npx and npm scripts put node_modules/.bin directories first on the PATH: they are not the shell's.
  const dirs = (io.env.PATH ?? '').split(delimiter).filter((dir) => dir && !/node_modules[/\\]\.bin[/\\]?$/.test(dir))
  for (const dir of dirs) {
    if (await fs.access(join(dir, 'collab'), constants.X_OK).then(() => true, () => false)) return true
  }
  return false
}

/** `03:04:05 GET /api/v4/projects 200 1.2 ms` per request, through node's http diagnostics channels. */
async function logRequests(io: IO): Promise<() => void> {
  const { subscribe, unsubscribe } = await import('node:diagnostics_channel')
  const started = new WeakMap<object, number>()
  type Message = { request: { method?: string; url?: string }; response: { statusCode: number } }
  const onStart = (message: unknown) => started.set((message as Message).request, performance.now())
  const onFinish = (message: unknown) => {
    const { request, response } = message as Message
    const begun = started.get(request)
    const ms = begun === undefined ? '' : ` ${(performance.now() - begun).toFixed(1)} ms`
    // The query is left out: it may hold a private_token.
    const path = (request.url ?? '').split('?')[0]
    const code = response.statusCode
    const status = code >= 500 ? io.color.red(String(code)) : code >= 400 ? io.color.yellow(String(code)) : io.color.green(String(code))
    const clock = new Date(io.now?.() ?? 0).toISOString().slice(11, 19)
    io.stderr.write(`${io.color.dim(clock)} ${request.method} ${path} ${status}${io.color.dim(ms)}\n`)
  }
  subscribe('http.server.request.start', onStart)
  subscribe('http.server.response.finish', onFinish)
  return () => {
    unsubscribe('http.server.request.start', onStart)
    unsubscribe('http.server.response.finish', onFinish)
  }
}
