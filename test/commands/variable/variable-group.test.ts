// collab variable --group and --instance against a real server: the same verbs on a group's and on the instance's
// CI/CD variables, the refusals of both, and flags that cannot go together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createUser, expectStatus } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { ok, rootCli, type Cli } from '../cli.js'
import { cliAs } from '../pipeline/fixture.js'

let server: TestServer
let c: Cli
let user: Cli

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  await createGroup(api(server, server.rootToken), { name: 'Ops', path: 'ops' })
  const plain = await createUser(server, 'plain')
  c = await rootCli(server)
  user = await cliAs(server, plain.token, 'plain')
})
afterAll(async () => {
  c.cleanup()
  user.cleanup()
  await server.close()
})

describe('collab variable --group', () => {
  it('creates, updates, reads, lists and deletes a group variable', async () => {
    expect(await c.run(['variable', 'set', 'G_KEY', 'v1', '--group', 'ops', '--protected'])).toEqual(ok('', 'Created variable G_KEY in ops\n'))
    expect(await c.run(['variable', 'set', 'G_KEY', 'v2', '-g', 'ops'])).toEqual(ok('', 'Updated variable G_KEY in ops\n'))
    expect(await c.run(['variable', 'get', 'G_KEY', '--group', 'ops'])).toEqual(ok('v2'))
    expect(await c.run(['variable', 'list', '--group', 'ops'])).toEqual(ok('G_KEY\tenv_var\ttrue\tfalse\tfalse\t*\tv2\n'))
    expect(await c.run(['variable', 'delete', 'G_KEY', '--group', 'ops'])).toEqual(ok('', 'Deleted variable G_KEY in ops\n'))
    expect(expectStatus(await api(server, server.rootToken).get('/groups/ops/variables'), 200).body).toEqual([])
  })

  it("passes on the server's 404", async () => {
    expect(await c.run(['variable', 'get', 'NOPE', '--group', 'ops'])).toEqual({ stdout: '', stderr: 'error: 404 GroupVariable Not Found\n', exitCode: 1 })
  })
})

describe('collab variable --instance', () => {
  it('manages instance variables, listed without a scope column', async () => {
    expect(await c.run(['variable', 'set', 'I_KEY', 'iv', '--instance', '-d', 'everywhere'])).toEqual(ok('', 'Created variable I_KEY in the instance\n'))
    expect(await c.run(['variable', 'set', 'I_KEY', 'iv2', '--instance', '--raw'])).toEqual(ok('', 'Updated variable I_KEY in the instance\n'))
    expect(await c.run(['variable', 'list', '--instance'])).toEqual(ok('I_KEY\tenv_var\tfalse\tfalse\ttrue\tiv2\n'))
    expect(await c.run(['variable', 'get', 'I_KEY', '--instance', '--json'])).toEqual(ok(
      '{"variable_type":"env_var","key":"I_KEY","value":"iv2","protected":false,"masked":false,"raw":true,"description":"everywhere"}\n'))
    expect(await c.run(['variable', 'rm', 'I_KEY', '--instance'])).toEqual(ok('', 'Deleted variable I_KEY in the instance\n'))
  })

  it('is refused to users who are not administrators', async () => {
    const res = await user.run(['variable', 'list', '--instance'])
    expect([res.exitCode, res.stdout, res.stderr.split('\n')[0]]).toEqual([1, '', 'error: 403 Forbidden'])
  })

  it('refuses flags that do not go together (exit 2) before calling the server', async () => {
    expect(await c.run(['variable', 'list', '--group', 'ops', '--instance'])).toEqual({ stdout: '', stderr: 'error: pass one of -p/--project, -g/--group and --instance\n', exitCode: 2 })
    expect(await c.run(['variable', 'get', 'K', '--instance', '--scope', 'prod'])).toEqual({ stdout: '', stderr: 'error: instance variables have no environment scope: drop --scope\n', exitCode: 2 })
  })
})
