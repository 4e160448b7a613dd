// Runs the built CLI (bin/collab.js) in piped mode with a clean environment and its own config directory.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, beforeEach } from 'vitest'
import { saveHostToken } from '../../src/cli/config.js'
import { api, type Api } from '../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'

export const BIN = new URL('../../bin/collab.js', import.meta.url).pathname

export interface Result {
  stdout: string
  stderr: string
  exitCode: number
}

export interface RunOptions {
  env?: Record<string, string>
  input?: string
  cwd?: string
}

/** A CLI process still running: its result to come, and a wait for what it prints on the way. */
export interface Running {
  result: Promise<Result>
  /** Resolves once stdout holds `text`; fails if the process ends without printing it. */
  printed(text: string): Promise<void>
}

export interface Cli {
  configDir: string
  run(args: string[], opts?: RunOptions): Promise<Result>
  start(args: string[], opts?: RunOptions): Running
  cleanup(): void
}

/** Nothing from the developer's environment (COLLAB_*, GITLAB_*, CI_*) leaks into a test. */
export function cli(): Cli {
  const configDir = mkdtempSync(join(tmpdir(), 'collab-cli-test-'))
  function start(args: string[], opts: RunOptions = {}): Running {
    const child = execa('node', [BIN, ...args], {
      // COLLAB_NO_KEYRING: a test never writes to the keyring of the machine it runs on (unless it asks to).
      env: { PATH: process.env.PATH ?? '', HOME: configDir, COLLAB_CONFIG_DIR: configDir, COLLAB_NO_KEYRING: '1', ...opts.env },
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
      input: opts.input ?? '',
      cwd: opts.cwd ?? configDir,
    })
    let stdout = ''
    let wake = () => {}
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      wake()
    })
    let ended = false
    const result = child.then((r) => {
      ended = true
      wake()
      return { stdout: String(r.stdout), stderr: String(r.stderr), exitCode: r.exitCode ?? -1 }
    })
    return {
      result,
      async printed(text) {
        while (!stdout.includes(text)) {
          if (ended) throw new Error(`collab ${args.join(' ')} ended without printing ${JSON.stringify(text)}: ${JSON.stringify(await result)}`)
          await new Promise<void>((resolve) => (wake = resolve))
        }
      },
    }
  }
  return {
    configDir,
    run: (args, opts) => start(args, opts).result,
    start,
    cleanup: () => rmSync(configDir, { recursive: true, force: true }),
  }
}

/** A CLI already logged in to the server as root, as `collab serve` leaves it. */
export async function rootCli(server: TestServer): Promise<Cli> {
  const c = cli()
  await saveHostToken(c.configDir, server.url, server.rootToken, 'root')
  return c
}

export const ok = (stdout: string, stderr = ''): Result => ({ stdout, stderr, exitCode: 0 })

export interface ServerFixture {
  server: TestServer
  /** The CLI, logged in as root. */
  c: Cli
  /** Root's API client, to arrange state and read it back. */
  root: Api
}

/** Registers hooks giving each test a fresh server (clock fixed at 2024-01-02T03:04:05Z) and its own logged-in CLI. */
export function useServerAndCli(): ServerFixture {
  const fixture = {} as ServerFixture
  beforeEach(async () => {
    fixture.server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
    fixture.c = await rootCli(fixture.server)
    fixture.root = api(fixture.server, fixture.server.rootToken)
  })
  afterEach(async () => {
    fixture.c.cleanup()
    await fixture.server.close()
  })
  return fixture
}
