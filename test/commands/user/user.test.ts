// collab user against a real server: list (piped and --json), create, block and unblock by username, delete with
// --yes and --hard, the refusals, and the argv that never reaches the server.
import { describe, expect, it } from 'vitest'
import { createUser, expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'
import { optionsOf, parse } from '../parse.js'

const f = useServerAndCli()
const NOW = '2024-01-02T03:04:05.000Z'

describe('collab user argv', () => {
  it('hands list its filters and delete its flags', async () => {
    expect(await optionsOf(['user', 'list', '--search', 'al', '--blocked', '--json'])).toEqual({
      command: 'user list', options: { search: 'al', active: false, blocked: true, admins: false, perPage: undefined, all: false, json: true },
    })
    expect(await optionsOf(['user', 'delete', 'alice', '--hard', '-y'])).toEqual({ command: 'user delete', options: { user: 'alice', hard: true, yes: true } })
    expect(await optionsOf(['user', 'block', '42'])).toEqual({ command: 'user block', options: { user: '42' } })
  })

  it('needs a user to block', async () => {
    const parsed = await parse(['user', 'block'])
    expect([parsed.exitCode, parsed.stderr]).toEqual([2, "error: missing required argument 'user'\nhint: see 'collab user block --help'\n"])
  })
})

describe('collab user', () => {
  it('lists users as tab-separated lines when piped, and the JSON unchanged', async () => {
    await createUser(f.server, 'alice', { name: 'Alice Liddell' })
    expect(await f.c.run(['user', 'list'])).toEqual(ok(
      `2\talice\tAlice Liddell\tactive\talice@example.com\tfalse\t${NOW}\n1\troot\tAdministrator\tactive\troot@localhost\ttrue\t${NOW}\n`))
    expect(await f.c.run(['user', 'ls', '--search', 'lidd'])).toEqual(ok(`2\talice\tAlice Liddell\tactive\talice@example.com\tfalse\t${NOW}\n`))
    const json = await f.c.run(['user', 'list', '--json'])
    expect(json).toEqual(ok(`${expectStatus(await f.root.get('/users'), 200).text}\n`))
  })

  it('creates a user with a password read from stdin, who can then sign in', async () => {
    const res = await f.c.run(['user', 'create', '-u', 'bob', '-e', 'bob@example.org', '-n', 'Bob B', '--password-file', '-', '--external'], { input: 'bob-secret-pass\n' })
    expect(res).toEqual(ok('', 'Created user bob (id 2)\n'))
    const bob = expectStatus(await f.root.get('/users/2'), 200).body
    expect([bob.username, bob.name, bob.email, bob.external, bob.is_admin]).toEqual(['bob', 'Bob B', 'bob@example.org', true, false])
    const grant = await fetch(`${f.server.url}/oauth/token`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: 'bob', password: 'bob-secret-pass' }),
    })
    expect(grant.status).toBe(200)
  })

  it('refuses to create without a username or a password choice, and passes on the server\'s refusal', async () => {
    expect(await f.c.run(['user', 'create', '-e', 'x@example.org', '--random-password'])).toEqual({ stdout: '', stderr: 'error: --username is required when not running interactively\n', exitCode: 2 })
    expect(await f.c.run(['user', 'create', '-u', 'x', '-e', 'x@example.org'])).toEqual({ stdout: '', stderr: 'error: --password-file is required when not running interactively\n', exitCode: 2 })
    expect(await f.c.run(['user', 'create', '-u', 'x', '-e', 'x@example.org', '--random-password', '--password-file', '-'])).toEqual({ stdout: '', stderr: 'error: pass --password-file FILE or --random-password, not both\n', exitCode: 2 })
    expect(await f.c.run(['user', 'create', '-u', 'root', '-e', 'x@example.org', '--random-password'])).toEqual({ stdout: '', stderr: 'error: Username has already been taken (HTTP 409)\n', exitCode: 1 })
  })

  it('blocks and unblocks a user named by username, and says when nothing changed', async () => {
    const alice = await createUser(f.server, 'alice')
    expect(await f.c.run(['user', 'block', 'alice'])).toEqual(ok('', 'Blocked alice\n'))
    expect((await alice.api.get('/user')).status).toBe(403)
    expect(await f.c.run(['user', 'block', '@alice'])).toEqual({ stdout: '', stderr: 'error: @alice is already blocked\n', exitCode: 1 })
    expect(await f.c.run(['user', 'unblock', String(alice.id)])).toEqual(ok('', `Unblocked ${alice.id}\n`))
    expect((await alice.api.get('/user')).status).toBe(200)
    expect(await f.c.run(['user', 'unblock', 'alice'])).toEqual({ stdout: '', stderr: 'error: alice is not blocked\n', exitCode: 1 })
  })

  it('deletes a user with --yes, and answers an unknown one', async () => {
    const alice = await createUser(f.server, 'alice')
    expect(await f.c.run(['user', 'delete', 'alice', '--yes'])).toEqual(ok('', 'Deleted user alice\n'))
    expect((await f.root.get(`/users/${alice.id}`)).status).toBe(404)
    const missing = await f.c.run(['user', 'delete', 'nobody', '--yes'])
    expect([missing.exitCode, missing.stderr.split('\n')[0]]).toEqual([1, 'error: no user nobody'])
    const unconfirmed = await f.c.run(['user', 'delete', 'root'])
    expect([unconfirmed.exitCode, unconfirmed.stderr]).toEqual([2, 'error: --yes is required when not running interactively\n'])
  })

  it('answers a non-administrator with the server\'s 403', async () => {
    const alice = await createUser(f.server, 'alice')
    const res = await f.c.run(['user', 'block', 'root'], { env: { COLLAB_HOST: f.server.url, COLLAB_TOKEN: alice.token } })
    expect(res).toEqual({ stdout: '', stderr: 'error: 403 Forbidden\n', exitCode: 1 })
  })
})
