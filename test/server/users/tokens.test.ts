// Personal access and impersonation tokens: create (admin), list, self, revoke.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PersonalAccessToken } from '../../../src/contract/entities/users.js'
import { api, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let root: Api
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
})
afterAll(() => server.close())

describe('POST /users/:id/personal_access_tokens', () => {
  it('answers 201 with the token shown once, and the token authenticates as the user', async () => {
    const res = await root.post(`/users/${alice.id}/personal_access_tokens`, { name: 'ci', scopes: ['read_api', 'read_user'], expires_at: '2030-12-31' })
    expect(res.status).toBe(201)
    const t = PersonalAccessToken.strict().parse(res.body)
    expect(t).toEqual({
      id: t.id, name: 'ci', revoked: false, created_at: NOW, scopes: ['read_api', 'read_user'], user_id: alice.id,
      last_used_at: null, active: true, expires_at: '2030-12-31', token: t.token,
    })
    expect(t.token).toMatch(/^glpat-[A-Za-z0-9_-]{20,}$/)
    const me = await api(server, t.token!).get('/user')
    expect(me.body.username).toBe('alice')
    const listed = await alice.api.get('/personal_access_tokens')
    const again = listed.body.find((x: any) => x.id === t.id)
    expect(again).toEqual({ ...t, token: undefined, last_used_at: NOW })
    expect(again).not.toHaveProperty('token')
  })

  it('accepts scopes as form `scopes[]=`', async () => {
    const res = await root.request('POST', `/users/${alice.id}/personal_access_tokens`, { form: 'name=form&scopes[]=api&scopes[]=read_user' })
    expect(res.status).toBe(201)
    expect(res.body.scopes).toEqual(['api', 'read_user'])
  })

  it('answers 400 when scopes are missing', async () => {
    const res = await root.post(`/users/${alice.id}/personal_access_tokens`, { name: 'noscope' })
    expect(res.status).toBe(400)
    expect(res.text).toBe('{"message":"400 (Bad request) \\"scopes\\" not given"}')
  })

  it('answers 400 for an unknown scope', async () => {
    const res = await root.post(`/users/${alice.id}/personal_access_tokens`, { name: 'bad', scopes: ['api', 'everything'] })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { scopes: ['does not have a valid value'] } })
  })

  it('answers 400 for an expiry date in the past', async () => {
    const res = await root.post(`/users/${alice.id}/personal_access_tokens`, { name: 'old', scopes: ['api'], expires_at: '2023-12-31' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { expires_at: ['must be in the future'] } })
  })

  it.each(['2030-02-31', '2030-13-01', '30-01-01', 'tomorrow'])('answers 400 is invalid for the expiry date %s', async (date) => {
    const res = await root.post(`/users/${alice.id}/personal_access_tokens`, { name: 'odd', scopes: ['api'], expires_at: date })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { expires_at: ['is invalid'] } })
  })

  it('answers 404 User Not Found for an unknown user', async () => {
    const res = await root.post('/users/999999/personal_access_tokens', { name: 'x', scopes: ['api'] })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 User Not Found' })
  })

  it('answers 403 to a non-administrator', async () => {
    const res = await alice.api.post(`/users/${alice.id}/personal_access_tokens`, { name: 'mine', scopes: ['api'] })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: '403 Forbidden' })
  })
})

describe('impersonation tokens', () => {
  it('creates one marked impersonation:true that acts as the user', async () => {
    const res = await root.post(`/users/${bob.id}/impersonation_tokens`, { name: 'as bob', scopes: ['api'] })
    expect(res.status).toBe(201)
    const t = PersonalAccessToken.strict().parse(res.body)
    expect(t).toMatchObject({ name: 'as bob', impersonation: true, user_id: bob.id, active: true, revoked: false, expires_at: null })
    expect((await api(server, t.token!).get('/user')).body.username).toBe('bob')
  })

  it('lists them for the user, filtered by state, without the secret', async () => {
    const second = expectStatus(await root.post(`/users/${bob.id}/impersonation_tokens`, { name: 'second', scopes: ['read_api'] }), 201).body
    expect((await root.del(`/users/${bob.id}/impersonation_tokens/${second.id}`)).status).toBe(204)
    const all = await root.get(`/users/${bob.id}/impersonation_tokens`)
    expect(all.status).toBe(200)
    for (const t of all.body) expect(PersonalAccessToken.strict().parse(t).token).toBeUndefined()
    expect(all.body.map((t: any) => [t.name, t.active, t.revoked, t.impersonation])).toEqual([['as bob', true, false, true], ['second', false, true, true]])
    expect((await root.get(`/users/${bob.id}/impersonation_tokens`, { query: { state: 'active' } })).body.map((t: any) => t.name)).toEqual(['as bob'])
    expect((await root.get(`/users/${bob.id}/impersonation_tokens`, { query: { state: 'inactive' } })).body.map((t: any) => t.name)).toEqual(['second'])
  })

  it('judges expiry by the server clock when filtering by state', async () => {
    // The clock stands at 2024-01-02: a token ending in 2025 is active, whatever the wall clock says.
    const carol = await createUser(server, 'carol')
    const t = expectStatus(await root.post(`/users/${carol.id}/impersonation_tokens`, { name: 'until 2025', scopes: ['api'], expires_at: '2025-06-01' }), 201).body
    expect(t.active).toBe(true)
    expect((await root.get(`/users/${carol.id}/impersonation_tokens`, { query: { state: 'active' } })).body.map((x: any) => x.name)).toEqual(['until 2025'])
    expect((await root.get(`/users/${carol.id}/impersonation_tokens`, { query: { state: 'inactive' } })).body).toEqual([])
    expect((await api(server, t.token).get('/user')).body.username).toBe('carol')
  })

  it('revokes one: 204, after which it no longer authenticates, and a second revoke is refused', async () => {
    const t = expectStatus(await root.post(`/users/${bob.id}/impersonation_tokens`, { name: 'short', scopes: ['api'] }), 201).body
    expect((await api(server, t.token).get('/user')).status).toBe(200)
    const res = await root.del(`/users/${bob.id}/impersonation_tokens/${t.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect((await api(server, t.token).get('/user')).status).toBe(401)
    const again = await root.del(`/users/${bob.id}/impersonation_tokens/${t.id}`)
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ message: '400 Bad request - Token already revoked' })
  })

  it('answers 404 Impersonation Token Not Found for a token of another user or kind', async () => {
    const t = expectStatus(await root.post(`/users/${bob.id}/impersonation_tokens`, { name: 'bobs', scopes: ['api'] }), 201).body
    const res = await root.del(`/users/${alice.id}/impersonation_tokens/${t.id}`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Impersonation Token Not Found' })
    const pat = (await alice.api.get('/personal_access_tokens/self')).body
    expect((await root.del(`/users/${alice.id}/impersonation_tokens/${pat.id}`)).body).toEqual({ message: '404 Impersonation Token Not Found' })
  })

  it('answers 403 to a non-administrator', async () => {
    expect((await bob.api.post(`/users/${bob.id}/impersonation_tokens`, { name: 'x', scopes: ['api'] })).status).toBe(403)
    expect((await bob.api.get(`/users/${bob.id}/impersonation_tokens`)).status).toBe(403)
  })
})

describe('/personal_access_tokens', () => {
  it('lists only the caller own tokens, and refuses another user_id', async () => {
    const res = await bob.api.get('/personal_access_tokens')
    expect(res.status).toBe(200)
    expect(res.body.every((t: any) => t.user_id === bob.id)).toBe(true)
    expect(res.body.map((t: any) => t.name)).toEqual(['test'])
    expect((await bob.api.get('/personal_access_tokens', { query: { user_id: alice.id } })).status).toBe(403)
  })

  it('lists any user tokens for an administrator', async () => {
    const res = await root.get('/personal_access_tokens', { query: { user_id: bob.id } })
    expect(res.body.map((t: any) => [t.user_id, t.name])).toEqual([[bob.id, 'test']])
  })

  it('reads the token of the request at /self', async () => {
    const res = await bob.api.get('/personal_access_tokens/self')
    expect(res.status).toBe(200)
    expect(PersonalAccessToken.strict().parse(res.body)).toMatchObject({ name: 'test', user_id: bob.id, scopes: ['api'], active: true })
  })

  it('revokes the token of the request at DELETE /self', async () => {
    const t = expectStatus(await root.post(`/users/${bob.id}/personal_access_tokens`, { name: 'throwaway', scopes: ['api'] }), 201).body
    const res = await api(server, t.token).del('/personal_access_tokens/self')
    expect(res.status).toBe(204)
    expect((await api(server, t.token).get('/user')).status).toBe(401)
    const listed = (await bob.api.get('/personal_access_tokens')).body.find((x: any) => x.id === t.id)
    expect([listed.revoked, listed.active]).toEqual([true, false])
  })

  it('revokes one own token by id, and answers 404 for another user token', async () => {
    const t = expectStatus(await root.post(`/users/${bob.id}/personal_access_tokens`, { name: 'by-id', scopes: ['api'] }), 201).body
    const aliceToken = (await alice.api.get('/personal_access_tokens/self')).body
    const foreign = await bob.api.del(`/personal_access_tokens/${aliceToken.id}`)
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ message: '404 Personal Access Token Not Found' })
    expect((await alice.api.get('/user')).status).toBe(200)
    expect((await bob.api.del(`/personal_access_tokens/${t.id}`)).status).toBe(204)
    expect((await api(server, t.token).get('/user')).status).toBe(401)
  })

  it('lets an administrator revoke any token by id', async () => {
    const t = expectStatus(await root.post(`/users/${alice.id}/personal_access_tokens`, { name: 'admin-kills', scopes: ['api'] }), 201).body
    expect((await root.del(`/personal_access_tokens/${t.id}`)).status).toBe(204)
    expect((await api(server, t.token).get('/user')).status).toBe(401)
  })
})
