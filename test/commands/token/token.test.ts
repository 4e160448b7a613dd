// collab token (glab token): a project's and a group's access tokens through the built CLI in piped mode.
import { describe, expect, it } from 'vitest'
import { api, expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'
import { optionsOf } from '../parse.js'

const f = useServerAndCli()
const P = ['-p', 'root/demo']

describe('collab token argv', () => {
  it('reads levels by name, scopes repeated or comma-separated, and lifetimes as glab does', async () => {
    expect(await optionsOf(['token', 'create', 'ci', '-A', 'developer', '-S', 'api', '-S', 'read_repository,write_repository', '-D', '2w', ...P])).toEqual({
      command: 'token create',
      options: { project: 'root/demo', group: undefined, name: 'ci', accessLevel: 30, scopes: ['api', 'read_repository', 'write_repository'], description: undefined, duration: 14, expiresAt: undefined, json: false },
    })
    expect((await optionsOf(['token', 'create', 'ci', '-g', 'team'])).options).toMatchObject({ group: 'team', scopes: ['read_repository'], accessLevel: undefined })
    expect((await optionsOf(['token', 'rotate', 'ci', '-D', '48h'])).options).toEqual({ project: undefined, group: undefined, token: 'ci', duration: 2, expiresAt: undefined, json: false })
  })
})

describe('collab token', () => {
  it('creates (printing the token), lists, rotates and revokes project tokens by name or id', async () => {
    const p = expectStatus(await f.root.post('/projects', { name: 'demo' }), 201).body
    const created = await f.c.run(['token', 'create', 'deploy', '-A', 'developer', '-S', 'api', '-E', '2024-03-01', ...P])
    const [secret] = created.stdout.split('\n')
    expect(secret).toMatch(/^glpat-/)
    const [t] = expectStatus(await f.root.get(`/projects/${p.id}/access_tokens`), 200).body
    expect(created).toEqual(ok(`${secret}\n`, `Created access token deploy (${t.id}) in root/demo, expiring 2024-03-01\n`))
    expect(expectStatus(await api(f.server, secret!).get(`/projects/${p.id}`), 200).body.id).toBe(p.id)
    expect(await f.c.run(['token', 'list', ...P])).toEqual(ok(`${t.id}\tdeploy\tdeveloper\ttrue\tfalse\t2024-01-02T03:04:05.000Z\t2024-03-01\t2024-01-02T03:04:05.000Z\tapi\n`))
    const rotated = await f.c.run(['token', 'rotate', 'deploy', '-E', '2024-04-01', ...P])
    const [fresh] = rotated.stdout.split('\n')
    const after = expectStatus(await f.root.get(`/projects/${p.id}/access_tokens`, { query: { state: 'active' } }), 200).body
    expect(rotated).toEqual(ok(`${fresh}\n`, `Rotated access token deploy in root/demo: ${t.id} revoked, ${after[0].id} expiring 2024-04-01\n`))
    expect((await api(f.server, secret!).get('/user')).status).toBe(401)
    const json = expectStatus(await f.root.get(`/projects/${p.id}/access_tokens`, { query: { state: 'active' } }), 200).text
    expect(await f.c.run(['token', 'list', '--active', '--json', ...P])).toEqual(ok(`${json}\n`))
    expect(await f.c.run(['token', 'revoke', 'nothing', ...P])).toEqual({ stdout: '', stderr: 'error: no active access token named "nothing" in root/demo\n', exitCode: 2 })
    expect(await f.c.run(['token', 'revoke', String(after[0].id), ...P])).toEqual(ok('', `Revoked access token deploy (${after[0].id}) in root/demo\n`))
    expect((await api(f.server, fresh!).get('/user')).status).toBe(401)
  })

  it("creates a group's token with glab's defaults, and refuses two lifetimes (exit 2)", async () => {
    expectStatus(await f.root.post('/groups', { name: 'Team', path: 'team' }), 201)
    const created = await f.c.run(['token', 'create', 'reader', '-g', 'team', '-E', '2024-02-01'])
    expect(created.exitCode).toBe(0)
    const [t] = expectStatus(await f.root.get('/groups/team/access_tokens'), 200).body
    expect(t).toMatchObject({ name: 'reader', scopes: ['read_repository'], access_level: 40, resource_type: 'group' })
    expect(await f.c.run(['token', 'create', 'x', '-D', '7d', '-E', '2024-02-01', '-g', 'team'])).toEqual({ stdout: '', stderr: 'error: pass --duration or --expires-at, not both\n', exitCode: 2 })
  })
})
