// collab variable against a real server: set creates then updates, get prints the value alone, list hides masked values
// only on a terminal, delete, --scope for keys shared across environments, and the argv that never reaches the server.
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ok } from '../cli.js'
import { optionsOf, parse } from '../parse.js'
import { useCiCli } from '../pipeline/fixture.js'

const f = useCiCli()
const variables = () => f.w.owner.api.get(`/projects/${f.w.project.id}/variables`)

describe('collab variable argv', () => {
  it('hands set its fields, only those given', async () => {
    expect(await optionsOf(['variable', 'set', 'K', 'v', '--type', 'file', '--protected', '--no-masked', '--raw', '-d', 'why', '--scope', 'prod', '--json'])).toEqual({
      command: 'variable set',
      options: { project: undefined, group: undefined, instance: false, key: 'K', value: 'v', valueFile: undefined, scope: 'prod', json: true, fields: { variable_type: 'file', protected: true, masked: false, raw: true, description: 'why' } },
    })
    expect((await optionsOf(['variable', 'set', 'K', '-f', '-'])).options).toMatchObject({ value: undefined, valueFile: '-', fields: { protected: undefined, masked: undefined, raw: undefined } })
  })

  it('refuses a type it does not know', async () => {
    const parsed = await parse(['variable', 'set', 'K', 'v', '--type', 'json'])
    expect([parsed.exitCode, parsed.stderr.split('\n')[0]]).toEqual([2, "error: option '-t, --type <type>' argument 'json' is invalid. Allowed choices are env_var, file."])
  })
})

describe('collab variable', () => {
  it('creates a variable, then updates it, and reads it back', async () => {
    expect(await f.c.run(['variable', 'set', 'DEPLOY_KEY', 'secret-value-1', '--masked', '--protected', ...f.p])).toEqual(ok('', 'Created variable DEPLOY_KEY in owner/builds\n'))
    expect(await f.c.run(['variable', 'set', 'DEPLOY_KEY', '-f', '-', '--no-protected', ...f.p], { input: 'secret-value-2' })).toEqual(ok('', 'Updated variable DEPLOY_KEY in owner/builds\n'))
    expect(expectStatus(await variables(), 200).body).toEqual([{
      variable_type: 'env_var', key: 'DEPLOY_KEY', value: 'secret-value-2', protected: false, masked: true, raw: false, environment_scope: '*', description: null,
    }])
    expect(await f.c.run(['variable', 'get', 'DEPLOY_KEY', ...f.p])).toEqual(ok('secret-value-2'))
  })

  it('lists every field as tab-separated lines when piped, and the JSON unchanged', async () => {
    await f.c.run(['variable', 'set', 'A', '1', ...f.p])
    await f.c.run(['variable', 'set', 'B', 'x: 1', '--type', 'file', '--raw', ...f.p])
    expect(await f.c.run(['variable', 'list', ...f.p])).toEqual(ok('A\tenv_var\tfalse\tfalse\tfalse\t*\t1\nB\tfile\tfalse\tfalse\ttrue\t*\tx: 1\n'))
    expect(await f.c.run(['variable', 'ls', '--json', ...f.p])).toEqual(ok(`${expectStatus(await variables(), 200).text}\n`))
  })

  it('picks one of several variables sharing a key with --scope', async () => {
    await f.c.run(['variable', 'set', 'URL', 'https://prod', '--scope', 'production', ...f.p])
    await f.c.run(['variable', 'set', 'URL', 'https://staging', '--scope', 'staging', ...f.p])
    expect(await f.c.run(['variable', 'set', 'URL', 'https://stage2', '--scope', 'staging', ...f.p])).toEqual(ok('', 'Updated variable URL in owner/builds\n'))
    expect(await f.c.run(['variable', 'get', 'URL', '--scope', 'staging', ...f.p])).toEqual(ok('https://stage2'))
    expect(await f.c.run(['variable', 'delete', 'URL', '--scope', 'production', ...f.p])).toEqual(ok('', 'Deleted variable URL in owner/builds\n'))
    expect(expectStatus(await variables(), 200).body.map((v: { environment_scope: string; value: string }) => [v.environment_scope, v.value])).toEqual([['staging', 'https://stage2']])
  })

  it("passes on the server's refusals: a value that cannot be masked, a missing key; and a missing value", async () => {
    const masked = await f.c.run(['variable', 'set', 'SHORT', 'abc', '--masked', ...f.p])
    expect([masked.exitCode, masked.stdout]).toEqual([1, ''])
    expect(masked.stderr).toMatch(/^error: value: /)
    expect(await f.c.run(['variable', 'get', 'NOPE', ...f.p])).toEqual({ stdout: '', stderr: 'error: 404 Variable Not Found\n', exitCode: 1 })
    expect(await f.c.run(['variable', 'set', 'K', ...f.p])).toEqual({ stdout: '', stderr: 'error: pass the value, or --value-file FILE, but not both\n', exitCode: 2 })
  })
})
