// collab auth login | status | logout: a round trip through the config file, against real servers.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { saveHostToken } from '../../src/cli/config.js'
import { api, createUser, expectStatus } from '../helpers/api.js'
import { startTestServer, type TestServer } from '../helpers/server.js'
import { cli, ok, type Cli } from './cli.js'

let server: TestServer
let c: Cli

beforeEach(async () => {
  server = await startTestServer()
  c = cli()
})

afterEach(async () => {
  c.cleanup()
  await server.close()
})

const readConfig = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))

describe('auth login', () => {
  it('checks the token with GET /user and stores it with the username, readable only by the owner', async () => {
    const dir = join(c.configDir, 'nested', 'collab')
    const env = { COLLAB_CONFIG_DIR: dir }
    expect(await c.run(['auth', 'login', '--host', `${server.url}/`, '--token', server.rootToken], { env })).toEqual(ok('', `Logged in to ${server.url} as root (token stored in config.json)\n`))
    expect(readConfig(dir)).toEqual({ default_host: server.url, hosts: { [server.url]: { token: server.rootToken, user: 'root' } }, settings: {} })
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    const user = expectStatus(await api(server, server.rootToken).get('/user'), 200).text
    expect(await c.run(['api', 'user'], { env })).toEqual(ok(`${user}\n`))
  })

  it('reads the token from stdin with --with-token and keeps the first host as the default', async () => {
    const alice = await createUser(server, 'alice')
    await saveHostToken(c.configDir, 'https://gitlab.example.com', 'other-token')
    expect(await c.run(['auth', 'login', '--host', server.url, '--with-token'], { input: `${alice.token}\n` })).toEqual(ok('', `Logged in to ${server.url} as alice (token stored in config.json)\n`))
    expect(readConfig(c.configDir)).toEqual({
      default_host: 'https://gitlab.example.com',
      hosts: { 'https://gitlab.example.com': { token: 'other-token' }, [server.url]: { token: alice.token, user: 'alice' } },
      settings: {},
    })
  })

  it('rejects a token the server refuses (exit 4) and stores nothing', async () => {
    expect(await c.run(['auth', 'login', '--host', server.url, '--token', 'glpat-wrong'])).toEqual({
      stdout: '',
      stderr: `error: ${server.url} rejected the token (401 Unauthorized)\nhint: use a personal access token with the api scope\n`,
      exitCode: 4,
    })
    expect(() => statSync(join(c.configDir, 'config.json'))).toThrow()
  })

  it('fails naming the flags when there is no token and no terminal to ask on (exit 2)', async () => {
    expect(await c.run(['auth', 'login', '--host', server.url])).toEqual({
      stdout: '',
      stderr: 'error: --token or --with-token is required when not running interactively\n',
      exitCode: 2,
    })
    expect(await c.run(['auth', 'login', '--token', 'x'])).toEqual({ stdout: '', stderr: 'error: --host is required when not running interactively\n', exitCode: 2 })
  })
})

describe('auth status', () => {
  it('prints host, user, token source and status for every host; exit 1 when one fails', async () => {
    const other = await startTestServer()
    try {
      await saveHostToken(c.configDir, server.url, server.rootToken, 'root')
      await saveHostToken(c.configDir, other.url, 'glpat-revoked')
      await saveHostToken(c.configDir, 'http://127.0.0.1:1', 'glpat-x')
      expect(await c.run(['auth', 'status'])).toEqual({
        stdout: [
          `${server.url}\troot\tconfig\tok`,
          `${other.url}\t\tconfig\t401 Unauthorized`,
          'http://127.0.0.1:1\t\tconfig\tcannot reach http://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1',
          '',
        ].join('\n'),
        stderr: '',
        exitCode: 1,
      })
    } finally {
      await other.close()
    }
  })

  it('exits 0 when every token works, and prints JSON with --json', async () => {
    await saveHostToken(c.configDir, server.url, server.rootToken, 'root')
    expect(await c.run(['auth', 'status'])).toEqual(ok(`${server.url}\troot\tconfig\tok\n`))
    expect(JSON.parse((await c.run(['auth', 'status', '--json'])).stdout)).toEqual([{ host: server.url, user: 'root', token_source: 'config', ok: true, error: null }])
  })

  it('checks the token the commands would use: COLLAB_TOKEN over the stored one, COLLAB_HOST included', async () => {
    const alice = await createUser(server, 'alice')
    await saveHostToken(c.configDir, server.url, server.rootToken, 'root')
    expect(await c.run(['auth', 'status'], { env: { COLLAB_TOKEN: alice.token } })).toEqual(ok(`${server.url}\talice\tCOLLAB_TOKEN\tok\n`))
    const fresh = cli()
    try {
      expect(await fresh.run(['auth', 'status'], { env: { COLLAB_HOST: server.url, COLLAB_TOKEN: alice.token } })).toEqual(ok(`${server.url}\talice\tCOLLAB_TOKEN\tok\n`))
    } finally {
      fresh.cleanup()
    }
  })

  it('exits 4 when no host is known', async () => {
    expect(await c.run(['auth', 'status'])).toEqual({
      stdout: '',
      stderr: "error: not logged in to any instance\nhint: run 'collab auth login --host URL'\n",
      exitCode: 4,
    })
  })
})

describe('auth logout', () => {
  it('removes the only host; commands then need a login (exit 4)', async () => {
    expect((await c.run(['auth', 'login', '--host', server.url, '--token', server.rootToken])).exitCode).toBe(0)
    expect(await c.run(['auth', 'logout'])).toEqual(ok('', `Logged out of ${server.url} (root)\n`))
    expect(readConfig(c.configDir)).toEqual({ hosts: {}, settings: {} })
    expect((await c.run(['project', 'list'])).exitCode).toBe(4)
  })

  it('needs --host when several hosts are stored, and moves the default to a remaining host', async () => {
    await saveHostToken(c.configDir, server.url, server.rootToken, 'root')
    await saveHostToken(c.configDir, 'https://gitlab.example.com', 'other-token')
    expect(await c.run(['auth', 'logout'])).toEqual({ stdout: '', stderr: 'error: --host is required when not running interactively\n', exitCode: 2 })
    expect(await c.run(['auth', 'logout', '--host', server.url])).toEqual(ok('', `Logged out of ${server.url} (root)\n`))
    expect(readConfig(c.configDir)).toEqual({ default_host: 'https://gitlab.example.com', hosts: { 'https://gitlab.example.com': { token: 'other-token' } }, settings: {} })
    expect(await c.run(['auth', 'logout', '--host', server.url])).toEqual({ stdout: '', stderr: `error: not logged in to ${server.url}\n`, exitCode: 1 })
  })
})
