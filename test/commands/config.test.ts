// collab config get | set | list: gh's keys, per-host values, validation, and the file they land in.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { cli, ok, type Cli } from './cli.js'

let c: Cli
beforeEach(() => {
  c = cli()
})
afterEach(() => c.cleanup())

const file = () => join(c.configDir, 'config.json')

it('lists every key with its default before anything is set', async () => {
  expect(await c.run(['config', 'list'])).toEqual(ok('host=\ngit_protocol=https\neditor=\n'))
  expect(await c.run(['config', 'get', 'git_protocol'])).toEqual(ok('https\n'))
})

it('sets and reads global values, writing the file 0600', async () => {
  expect(await c.run(['config', 'set', 'editor', 'vim -f'])).toEqual(ok(''))
  expect(await c.run(['config', 'set', 'git_protocol', 'ssh'])).toEqual(ok(''))
  expect(await c.run(['config', 'get', 'editor'])).toEqual(ok('vim -f\n'))
  expect(await c.run(['config', 'list'])).toEqual(ok('host=\ngit_protocol=ssh\neditor=vim -f\n'))
  expect(JSON.parse((await c.run(['config', 'list', '--json'])).stdout)).toEqual({ host: '', git_protocol: 'ssh', editor: 'vim -f' })
  expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ hosts: {}, settings: { editor: 'vim -f', git_protocol: 'ssh' } })
  expect(statSync(file()).mode & 0o777).toBe(0o600)
})

it('keeps per-host values apart from the global one (--host)', async () => {
  expect(await c.run(['config', 'set', 'git_protocol', 'ssh', '--host', 'gitlab.example.com'])).toEqual(ok(''))
  expect(await c.run(['config', 'get', 'git_protocol', '--host', 'https://gitlab.example.com/'])).toEqual(ok('ssh\n'))
  expect(await c.run(['config', 'get', 'git_protocol'])).toEqual(ok('https\n'))
  expect(await c.run(['config', 'get', 'git_protocol', '--host', 'http://127.0.0.1:3000'])).toEqual(ok('https\n'))
  expect(await c.run(['config', 'list', '--host', 'gitlab.example.com'])).toEqual(ok('git_protocol=ssh\n'))
  expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ hosts: { 'https://gitlab.example.com': { git_protocol: 'ssh' } }, settings: {} })
})

it('stores `host` as the normalized default host, which commands then use', async () => {
  expect(await c.run(['config', 'set', 'host', 'gitlab.example.com/api/v4/'])).toEqual(ok(''))
  expect(await c.run(['config', 'get', 'host'])).toEqual(ok('https://gitlab.example.com\n'))
  expect(await c.run(['project', 'list'])).toEqual({
    stdout: '',
    stderr: "error: not logged in to https://gitlab.example.com\nhint: run 'collab auth login --host https://gitlab.example.com'\n",
    exitCode: 4,
  })
})

it('rejects unknown keys, invalid values and per-host global keys (exit 2) without writing', async () => {
  expect(await c.run(['config', 'get', 'colour'])).toEqual({ stdout: '', stderr: "error: unknown configuration key 'colour'\nhint: known keys: host, git_protocol, editor\n", exitCode: 2 })
  expect(await c.run(['config', 'set', 'git_protocol', 'ftp'])).toEqual({ stdout: '', stderr: "error: invalid value 'ftp' for git_protocol\nhint: valid values: https, ssh\n", exitCode: 2 })
  expect(await c.run(['config', 'set', 'editor', 'vim', '--host', 'x.example'])).toEqual({ stdout: '', stderr: "error: 'editor' cannot be set per host; drop --host\n", exitCode: 2 })
  expect(await c.run(['config', 'set', 'host', 'ftp://x'])).toEqual({ stdout: '', stderr: "error: invalid host 'ftp://x': only http and https are supported\n", exitCode: 2 })
  expect(await c.run(['config', 'set', 'browser', 'firefox'])).toEqual({ stdout: '', stderr: "error: 'browser' is not a collab setting\nhint: collab opens no browser: --web prints the URL to open\n", exitCode: 2 })
  expect(() => statSync(file())).toThrow()
})

it('takes -h as help, as every other command does', async () => {
  const res = await c.run(['config', 'get', '-h'])
  expect([res.exitCode, res.stdout.split('\n')[0], res.stderr]).toEqual([0, 'Usage: collab config get [options] <key>', ''])
})
