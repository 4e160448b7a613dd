// collab serve: run the embedded server, store its root token for this CLI, stop cleanly on SIGINT/SIGTERM.
import { isIP } from 'node:net'
import { InvalidArgumentError, type Command, type OptionValues } from 'commander'
import { defaultDataDir } from '../src/core/paths.js'
import { VERSION } from '../src/core/version.js'
import type { Runtime } from '../src/cli/command.js'
import { saveHostToken } from '../src/cli/config.js'
import type { Deps } from '../src/cli/factory.js'
import type { Env } from '../src/cli/io.js'

export interface ServeOptions {
  host: string
  port: number
  dataDir: string
  rootToken?: string
  rootPassword?: string
  responseCache: boolean
  trustedProxies: string[]
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
    .action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags, rt.io.env)))
}

export const toOptions = (flags: OptionValues, env: Env): ServeOptions => ({
  host: flags.host,
  port: flags.port,
  dataDir: flags.data ?? defaultDataDir(),
  rootToken: flags.rootToken ?? (env.COLLAB_ROOT_TOKEN || undefined),
  rootPassword: env.COLLAB_ROOT_PASSWORD || undefined,
  responseCache: flags.responseCache !== false,
  trustedProxies: flags.trustedProxy ?? [],
})

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
  const server = await startServer({ ...options, log: say })

  say(`collab ${VERSION} serving ${server.url}`)
  say(`data: ${server.dataDir}`)
  if (server.rootTokenCreated) say(`root token (shown once): ${server.rootTokenCreated}`)
  if (server.rootToken) {
    await saveHostToken(await deps.configDir, server.url, server.rootToken, 'root')
    say(`this CLI is logged in as root; elsewhere: collab auth login --host ${server.url} --token <token>`)
  } else {
    say(`log in with: collab auth login --host ${server.url}`)
  }
  say('press Ctrl-C to stop')

  say(`${await stopped}: finishing requests and closing the database`)
  await server.close()
  return 0
}
