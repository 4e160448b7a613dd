// collab serve: prints where it listens, stores the root token for this CLI, and stops cleanly on SIGTERM.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { BIN, cli, ok, type Cli } from './cli.js'

let c: Cli
let dataDir: string
beforeEach(() => {
  c = cli()
  dataDir = mkdtempSync(join(tmpdir(), 'collab-serve-test-'))
})
afterEach(() => {
  c.cleanup()
  rmSync(dataDir, { recursive: true, force: true })
})

async function serve(args: string[]) {
  const child = execa('node', [BIN, 'serve', '--port', '0', '--data', dataDir, ...args], {
    env: { PATH: process.env.PATH ?? '', COLLAB_CONFIG_DIR: c.configDir },
    extendEnv: false,
    reject: false,
  })
  let stderr = ''
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      if (stderr.includes('press Ctrl-C to stop\n')) resolve()
    })
    child.on('exit', () => reject(new Error(`serve exited early:\n${stderr}`)))
  })
  const url = /serving (http:\/\/\S+)\n/.exec(stderr)?.[1] ?? ''
  return { child, url, stderr: () => stderr }
}

it('stores the given root token for its URL, answers the CLI, and exits 0 on SIGTERM', async () => {
  const { child, url, stderr } = await serve(['--root-token', 'glpat-serve-test-token-00000000'])
  expect(stderr()).toMatch(new RegExp(`^collab \\S+ serving http://127\\.0\\.0\\.1:\\d+\\ndata: ${dataDir}\\nthis CLI is logged in as root; elsewhere: collab auth login --host ${url} --token <token>\\npress Ctrl-C to stop\\n$`))
  expect(JSON.parse(readFileSync(join(c.configDir, 'config.json'), 'utf8'))).toEqual({
    default_host: url, hosts: { [url]: { token: 'glpat-serve-test-token-00000000', user: 'root' } }, settings: {},
  })
  expect(await c.run(['project', 'create', 'demo'])).toEqual(ok(`${url}/root/demo\n`, 'Created project root/demo\n'))
  child.kill('SIGTERM')
  const result = await child
  expect(result.exitCode).toBe(0)
  expect(stderr()).toMatch(/SIGTERM: finishing requests and closing the database\n$/)
})

it('prints a generated root token once, and on the next start only how to log in', async () => {
  const first = await serve([])
  const token = /root token \(shown once\): (\S+)\n/.exec(first.stderr())?.[1]
  expect(token).toMatch(/^glpat-/)
  first.child.kill('SIGINT')
  const stopped = await first.child
  expect([stopped.exitCode, stopped.signal]).toEqual([0, undefined])
  expect(first.stderr()).toMatch(/SIGINT: finishing requests and closing the database\n$/)

  const again = await serve([])
  expect(again.stderr()).not.toContain('root token')
  expect(again.stderr()).toContain(`log in with: collab auth login --host ${again.url}\n`)
  again.child.kill('SIGTERM')
  expect((await again.child).exitCode).toBe(0)
})

it('refuses a data directory another collab serve is using, naming it, and leaves the first one running', async () => {
  const first = await serve(['--root-token', 'glpat-serve-test-token-00000000'])
  const second = await execa('node', [BIN, 'serve', '--port', '0', '--data', dataDir], {
    env: { PATH: process.env.PATH ?? '', COLLAB_CONFIG_DIR: c.configDir }, extendEnv: false, reject: false,
  })
  expect(second.exitCode).toBe(1)
  expect(second.stderr).toContain(`${join(dataDir, 'collab.db')} is in use by another process`)
  expect(await c.run(['project', 'create', 'still-here'])).toEqual(ok(`${first.url}/root/still-here\n`, 'Created project root/still-here\n'))
  first.child.kill('SIGTERM')
  expect((await first.child).exitCode).toBe(0)
})
