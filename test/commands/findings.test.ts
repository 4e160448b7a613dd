// Issue 14's findings that a piped run shows: bare project names, HEAD resolved in the clone, emoji awards, the TLS hint,
// help for a verb, and the editor setting; the built CLI against a real server.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../helpers/api.js'
import { BIN, ok, useServerAndCli } from './cli.js'
import { seeded } from './mr/fixture.js'

const t = useServerAndCli()

describe('project names', () => {
  it('reads a bare name as the caller\'s own namespace, right after project create', async () => {
    expect(await t.c.run(['project', 'create', 'demo'])).toEqual(ok(`${t.server.url}/root/demo\n`, 'Created project root/demo\n'))
    expect(await t.c.run(['issue', 'create', '-p', 'demo', '-t', 'First'])).toEqual(ok(`${t.server.url}/root/demo/-/issues/1\n`, 'Created issue #1 in root/demo\n'))
    expect(await t.c.run(['issue', 'list', '-p', 'nope'])).toEqual({ stdout: '', stderr: 'error: 404 Project Not Found: root/nope\n', exitCode: 1 })
  })
})

describe('commit status set in a clone', () => {
  it('resolves HEAD and a short SHA in the local clone, not on the server', async () => {
    const { fix } = await seeded(t, false)
    const bin = join(t.c.configDir, 'bin')
    mkdirSync(bin)
    symlinkSync(BIN, join(bin, 'collab'))
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, GIT_CONFIG_NOSYSTEM: '1' }
    await t.c.run(['project', 'clone', 'root/demo'], { env })
    const dir = join(t.c.configDir, 'demo')
    await execa('git', ['checkout', '-q', 'fix'], { cwd: dir })
    expect(await t.c.run(['commit', 'status', 'set', 'HEAD', '-s', 'success', '-n', 'build'], { cwd: dir })).toEqual(ok('', `Set build to success on ${fix.id.slice(0, 8)} (fix)\n`))
    expect(await t.c.run(['commit', 'status', 'set', fix.id.slice(0, 7), '-s', 'failed', '-n', 'lint'], { cwd: dir })).toEqual(ok('', `Set lint to failed on ${fix.id.slice(0, 8)} (fix)\n`))
  })
})

describe('notes of only an emoji', () => {
  it('says the emoji was awarded, not that a note was added', async () => {
    const p = await createProject(t.root, { name: 'demo' })
    expectStatus(await t.root.post(`/projects/${p.id}/issues`, { title: 'Liked' }), 201)
    expect(await t.c.run(['issue', 'note', 'add', '1', '-p', 'root/demo', '-m', ':thumbsup:'])).toEqual(ok('', 'Awarded :thumbsup: to issue #1 in root/demo (a note of only an emoji is an award)\n'))
    expect(await t.c.run(['issue', 'note', 'add', '1', '-p', 'root/demo', '-m', 'Words'])).toEqual(ok('', 'Added a note to issue #1 in root/demo\n'))
  })
})

describe('a host without a scheme on a plain-HTTP server', () => {
  it('says the server does not speak TLS and suggests http://', async () => {
    const bare = t.server.url.replace('http://', '')
    expect(await t.c.run(['auth', 'login', '--host', bare, '--token', 'x'])).toEqual({
      stdout: '', exitCode: 1,
      stderr: `error: cannot reach https://${bare}: the server does not speak TLS (https)\nhint: a bare host means https; for a plain-HTTP server such as collab serve use --host http://${bare}\n`,
    })
  })
})

describe('help', () => {
  it('collab help issue list prints the help of issue list; -h is help in every command', async () => {
    const help = await t.c.run(['help', 'issue', 'list'])
    expect([help.exitCode, help.stdout.split('\n')[0]]).toEqual([0, 'Usage: collab issue list|ls [options]'])
    expect((await t.c.run(['issue', 'list', '-h'])).stdout).toBe(help.stdout)
    const config = await t.c.run(['config', 'get', '-h'])
    expect([config.exitCode, config.stdout.split('\n')[0]]).toEqual([0, 'Usage: collab config get [options] <key>'])
  })
})

describe('config keys', () => {
  it('uses git_protocol ssh for clone (the ssh URL, no token)', async () => {
    await createProject(t.root, { name: 'demo' })
    expect(await t.c.run(['config', 'set', 'git_protocol', 'ssh', '--host', t.server.url])).toEqual(ok(''))
    const res = await t.c.run(['project', 'clone', 'root/demo'], { env: { GIT_SSH_COMMAND: 'false', GIT_CONFIG_NOSYSTEM: '1' } })
    expect(res.exitCode).toBe(1)
    expect(res.stderr).toContain('error: git clone of root/demo failed')
    expect(res.stderr).not.toContain('http://')
  })

  it('refuses browser (there is no browser to open), leaving the file unwritten', async () => {
    writeFileSync(join(t.c.configDir, 'marker'), '')
    expect(await t.c.run(['config', 'set', 'browser', 'firefox'])).toEqual({ stdout: '', exitCode: 2, stderr: "error: 'browser' is not a collab setting\nhint: collab opens no browser: --web prints the URL to open\n" })
  })
})
