// collab settings get|set: the built CLI against a real server, piped, with exact output.
import { describe, expect, it } from 'vitest'
import { createUser, expectStatus } from '../helpers/api.js'
import { ok, useServerAndCli } from './cli.js'
import { optionsOf, parse } from './parse.js'

const t = useServerAndCli()

describe('argv to options', () => {
  it.each([
    [['settings', 'get'], 'settings get', { names: [], json: false }],
    [['settings', 'get', 'signup_enabled', 'session_expire_delay', '--json'], 'settings get', { names: ['signup_enabled', 'session_expire_delay'], json: true }],
    [['settings', 'set', 'a=1', 'b=x=y', '--json'], 'settings set', { assignments: ['a=1', 'b=x=y'], json: true }],
  ])('%j -> %s %j', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })

  it('needs at least one NAME=VALUE for set (exit 2)', async () => {
    const result = await parse(['settings', 'set'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain("error: missing required argument 'assignments'")
  })
})

describe('settings get', () => {
  it('prints every setting as name<TAB>value lines, arrays as comma lists and null as nothing', async () => {
    await t.root.put('/application/settings', { restricted_visibility_levels: ['public', 'internal'] })
    const record = expectStatus(await t.root.get('/application/settings'), 200).body
    const { stdout, stderr, exitCode } = await t.c.run(['settings', 'get'])
    expect({ stderr, exitCode }).toEqual({ stderr: '', exitCode: 0 })
    const lines = stdout.trimEnd().split('\n')
    expect(lines.map((l) => l.split('\t')[0])).toEqual(Object.keys(record))
    expect(lines).toContain('restricted_visibility_levels\tpublic,internal')
    expect(lines).toContain('default_projects_limit\t100000')
    expect(lines).toContain('admin_notification_email\t')
  })

  it('prints the named settings in the order asked', async () => {
    expect(await t.c.run(['settings', 'get', 'signup_enabled', 'default_project_visibility'])).toEqual(ok('signup_enabled\ttrue\ndefault_project_visibility\tprivate\n'))
  })

  it('prints the API body unchanged with --json, and an object of the named ones with names', async () => {
    const body = expectStatus(await t.root.get('/application/settings'), 200).text
    expect(await t.c.run(['settings', 'get', '--json'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['settings', 'get', 'signup_enabled', 'domain_whitelist', '--json'])).toEqual(ok('{"signup_enabled":true,"domain_whitelist":null}\n'))
  })

  it('warns about a name it does not know and prints the rest', async () => {
    expect(await t.c.run(['settings', 'get', 'no_such_setting', 'signup_enabled'])).toEqual(
      ok('signup_enabled\ttrue\n', "warning: unknown setting 'no_such_setting'; the server ignores names it does not know\n"))
  })

  it('fails with exit code 1 for a user who is not an administrator', async () => {
    const alice = await createUser(t.server, 'alice')
    expect(await t.c.run(['settings', 'get', '--token', alice.token])).toEqual({ stdout: '', stderr: 'error: 403 Forbidden\n', exitCode: 1 })
  })
})

describe('settings set', () => {
  it('types each value from the contract: booleans, integers, decimals, comma lists, strings', async () => {
    const result = await t.c.run(['settings', 'set', 'signup_enabled=no', 'default_projects_limit=5', 'polling_interval_multiplier=1.5',
      'restricted_visibility_levels=public, internal', 'sign_in_text=Hello, world'])
    expect(result).toEqual(ok('', 'Updated signup_enabled, default_projects_limit, polling_interval_multiplier, restricted_visibility_levels, sign_in_text\n'))
    expect(expectStatus(await t.root.get('/application/settings'), 200).body).toMatchObject({
      signup_enabled: false, default_projects_limit: 5, polling_interval_multiplier: 1.5,
      restricted_visibility_levels: ['public', 'internal'], sign_in_text: 'Hello, world',
    })
  })

  it('clears an array with an empty value and prints the record with --json', async () => {
    await t.root.put('/application/settings', { restricted_visibility_levels: ['public'] })
    const { stdout, exitCode } = await t.c.run(['settings', 'set', 'restricted_visibility_levels=', '--json'])
    expect(exitCode).toBe(0)
    expect(JSON.parse(stdout).restricted_visibility_levels).toEqual([])
  })

  it("shows the server's validation message and exits 1, changing nothing", async () => {
    expect(await t.c.run(['settings', 'set', 'signup_enabled=false', 'max_attachment_size=0'])).toEqual({
      stdout: '', stderr: 'error: max_attachment_size: must be greater than 0 (HTTP 400)\n', exitCode: 1,
    })
    expect(await t.c.run(['settings', 'set', 'metrics_enabled=true'])).toMatchObject({
      stderr: expect.stringContaining('metrics_host: is missing; '), exitCode: 1,
    })
    expect(expectStatus(await t.root.get('/application/settings'), 200).body.signup_enabled).toBe(true)
  })

  it('warns about an unknown name, still sends the rest, and claims only what the server updated', async () => {
    expect(await t.c.run(['settings', 'set', 'no_such_setting=1', 'signup_enabled=false'])).toEqual(ok('',
      "warning: unknown setting 'no_such_setting'; the server ignores names it does not know\nUpdated signup_enabled\nNot updated (the server has no such setting): no_such_setting\n"))
    expect(await t.c.run(['settings', 'set', 'unknown_thing=1'])).toEqual({ stdout: '', exitCode: 1,
      stderr: "warning: unknown setting 'unknown_thing'; the server ignores names it does not know\nerror: nothing was updated: the server has no setting unknown_thing\nhint: see 'collab settings get'\n" })
    expect(expectStatus(await t.root.get('/application/settings'), 200).body.signup_enabled).toBe(false)
  })

  it.each([
    [['signup_enabled=maybe'], "error: signup_enabled expects a boolean (true or false), not 'maybe'\n"],
    [['default_projects_limit=lots'], "error: default_projects_limit expects an integer, not 'lots'\n"],
    [['jobqueue_throttling_factor=half'], "error: jobqueue_throttling_factor expects a number, not 'half'\n"],
    [['signup_enabled'], "error: expected NAME=VALUE, not 'signup_enabled'\nhint: see 'collab settings set --help'\n"],
  ])('refuses %j before any request (exit 2)', async (args, stderr) => {
    expect(await t.c.run(['settings', 'set', ...args])).toEqual({ stdout: '', stderr, exitCode: 2 })
  })
})
