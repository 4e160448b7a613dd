// collab serve: prints where it listens, stores the root token for this CLI, and stops cleanly on SIGTERM.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { until } from '../helpers/wait.js'
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

async function serve(args: string[], port = '0', env: Record<string, string> = { COLLAB_NO_KEYRING: '1' }) {
  const child = execa('node', [BIN, 'serve', '--port', port, '--data', dataDir, ...args], {
    env: { PATH: process.env.PATH ?? '', COLLAB_CONFIG_DIR: c.configDir, ...env },
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
  expect(stderr()).toMatch(new RegExp(`^collab \\S+ serving http://127\\.0\\.0\\.1:\\d+\\ndata: ${dataDir}\\nthis CLI is logged in as root and now talks to ${url} by default\\nelsewhere: collab auth login --host ${url} --token <token>\\n'collab' is not on your PATH yet: 'npm run setup' in the collab checkout puts it there \\(until then: npx collab …\\)\\npress Ctrl-C to stop\\n$`))
  expect(JSON.parse(readFileSync(join(c.configDir, 'config.json'), 'utf8'))).toEqual({
    default_host: url, hosts: { [url]: { token: 'glpat-serve-test-token-00000000', user: 'root', serve_data: dataDir } }, settings: {},
  })
  expect(await c.run(['project', 'create', 'demo'])).toEqual(ok(`${url}/root/demo\n`, 'Created project root/demo\n'))
  child.kill('SIGTERM')
  const result = await child
  expect(result.exitCode).toBe(0)
  expect(stderr()).toMatch(/SIGTERM: finishing requests and closing the database\n$/)
})

it('prints a generated root token once; the next start, on another port, logs the CLI in with the stored token', async () => {
  const first = await serve([])
  const token = /root token \(shown once\): (\S+)\n/.exec(first.stderr())?.[1]
  expect(token).toMatch(/^glpat-/)
  first.child.kill('SIGINT')
  const stopped = await first.child
  expect([stopped.exitCode, stopped.signal]).toEqual([0, undefined])
  expect(first.stderr()).toMatch(/SIGINT: finishing requests and closing the database\n$/)

  const again = await serve([])
  expect(again.stderr()).not.toContain('root token')
  expect(again.stderr()).toContain(`this CLI is logged in as root and now talks to ${again.url} by default\n`)
  const config = JSON.parse(readFileSync(join(c.configDir, 'config.json'), 'utf8'))
  expect([config.default_host, config.hosts[again.url]]).toEqual([again.url, { token, user: 'root', serve_data: dataDir }])
  expect(await c.run(['project', 'create', 'demo'])).toEqual(ok(`${again.url}/root/demo\n`, 'Created project root/demo\n'))
  again.child.kill('SIGTERM')
  expect((await again.child).exitCode).toBe(0)
})

it('a scratch server on another data directory leaves the default host alone unless started with --login', async () => {
  const { saveHostToken } = await import('../../src/cli/config.js')
  await saveHostToken(c.configDir, 'https://gitlab.example.com', 'glpat-elsewhere', 'alice')
  const scratch = await serve(['--root-token', 'glpat-serve-test-token-00000000'])
  expect(scratch.stderr()).toContain(`this CLI is logged in as root here; its default host stays https://gitlab.example.com (use --host ${scratch.url}, or restart with --login)\n`)
  expect(await c.run(['config', 'get', 'host'])).toEqual(ok('https://gitlab.example.com\n'))
  expect(await c.run(['project', 'create', 'demo', '--host', scratch.url])).toEqual(ok(`${scratch.url}/root/demo\n`, 'Created project root/demo\n'))
  scratch.child.kill('SIGTERM')
  await scratch.child
  const asked = await serve(['--login'])
  expect(asked.stderr()).toContain(`this CLI is logged in as root and now talks to ${asked.url} by default\n`)
  expect(await c.run(['config', 'get', 'host'])).toEqual(ok(`${asked.url}\n`))
  asked.child.kill('SIGTERM')
  await asked.child
  // Stopped, it is named in the error with the two ways out.
  expect(await c.run(['project', 'list'])).toEqual({
    stdout: '', exitCode: 1,
    stderr: `error: cannot reach ${asked.url}: connect ECONNREFUSED ${asked.url.slice(7)}\nhint: is the server running? 'collab serve' starts one; another server: 'collab config set host URL'\n`,
  })
})

it('on a start with an existing database and no known token, says how to log in', async () => {
  const first = await serve([])
  first.child.kill('SIGTERM')
  await first.child
  rmSync(join(c.configDir, 'config.json'))
  const again = await serve([])
  expect(again.stderr()).toContain([
    'this data directory was set up on an earlier start, which showed the root token once',
    `log in with: collab auth login --host ${again.url} --token <token>`,
    '(or restart with --root-token <token> to add a root token of your choosing)', '',
  ].join('\n'))
  again.child.kill('SIGTERM')
  expect((await again.child).exitCode).toBe(0)
})

it('on a busy port, fails saying so before creating a database or a token', async () => {
  const { createServer } = await import('node:net')
  const busy = createServer()
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
  const port = (busy.address() as { port: number }).port
  try {
    const res = await execa('node', [BIN, 'serve', '--port', String(port), '--data', dataDir], {
      env: { PATH: process.env.PATH ?? '', COLLAB_CONFIG_DIR: c.configDir, COLLAB_NO_KEYRING: '1' }, extendEnv: false, reject: false,
    })
    expect([res.exitCode, res.stdout, res.stderr]).toEqual([1, '',
      `error: port ${port} is already in use on 127.0.0.1\nhint: is another collab serve running? pick another port with --port N (0 picks a free one)`])
    expect(readdirSync(dataDir)).toEqual([])
    expect(readdirSync(c.configDir)).toEqual([])
  } finally {
    busy.close()
  }
})

it('refuses a data directory another collab serve is using, naming it, and leaves the first one running', async () => {
  const first = await serve(['--root-token', 'glpat-serve-test-token-00000000'])
  const second = await execa('node', [BIN, 'serve', '--port', '0', '--data', dataDir], {
    env: { PATH: process.env.PATH ?? '', COLLAB_CONFIG_DIR: c.configDir, COLLAB_NO_KEYRING: '1' }, extendEnv: false, reject: false,
  })
  expect(second.exitCode).toBe(1)
  expect(second.stderr).toContain(`${join(dataDir, 'collab.db')} is in use by another process`)
  expect(await c.run(['project', 'create', 'still-here'])).toEqual(ok(`${first.url}/root/still-here\n`, 'Created project root/still-here\n'))
  first.child.kill('SIGTERM')
  expect((await first.child).exitCode).toBe(0)
})

// Issue 24 (the first answer within 300 ms): zlib waits for a compressed body or an artifact, and the OS keyring's native
// module never loads in the server's process. isomorphic-git, yaml and yauzl, inside the server's bundle, are kept to
// import() by the rule server-loads-on-first-use of .dependency-cruiser.cjs.
it.runIf(existsSync('/proc/self/maps'))('loads neither zlib by its first answer nor the keyring at all', async () => {
  const modulesFile = join(dataDir, 'modules.json')
  const preload = new URL('../fixtures/modules-at-first-answer.cjs', import.meta.url).pathname
  // No COLLAB_NO_KEYRING: a server that stored its token through the keyring would load the keyring's module.
  const { child, url } = await serve(['--root-token', 'glpat-serve-test-token-00000000', '--no-runner'], '0', {
    HOME: c.configDir, NODE_OPTIONS: `--require ${preload}`, COLLAB_TEST_MODULES_FILE: modulesFile,
  })
  try {
    const res = await fetch(`${url}/api/v4/version`, { headers: { 'private-token': 'glpat-serve-test-token-00000000' } })
    expect(res.status).toBe(200)
    await res.arrayBuffer()
    // The server writes the list once its answer is handed to the socket, which the answer itself can outrun.
    const loaded = await until('the list of modules loaded by the first answer', () => (existsSync(modulesFile) ? (JSON.parse(readFileSync(modulesFile, 'utf8')) as string[]) : null))
    // The list is node's own, not an empty file: it holds what every start loads.
    expect(loaded).toContain('NativeModule http')
    expect(loaded.filter((m) => /^NativeModule zlib$/.test(m))).toEqual([])
    // The banner's last line comes after the token is stored: the keyring would have been tried by now.
    expect(JSON.parse(readFileSync(join(c.configDir, 'config.json'), 'utf8')).hosts[url].token).toBe('glpat-serve-test-token-00000000')
    expect(readFileSync(`/proc/${child.pid}/maps`, 'utf8').split('\n').filter((line) => /keyring/i.test(line))).toEqual([])
  } finally {
    child.kill('SIGTERM')
    await child
  }
})
