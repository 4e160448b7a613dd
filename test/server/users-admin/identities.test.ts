// External identities of users: set by administrators on POST/PUT /users, shown on admin views and GET /user, looked
// up by GET /users?extern_uid=&provider= (administrators only), removed by DELETE /users/:id/identities/:provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UserPublic } from '../../../src/contract/entities/users.js'
import { api, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let plain: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  root = api(server, server.rootToken)
  plain = await createUser(server, 'plain')
})
afterAll(() => server.close())

const newUser = (username: string, extra: Record<string, unknown>) =>
  root.post('/users', { username, email: `${username}@example.com`, name: username, password: 'long-password-1', ...extra })

describe('identities', () => {
  let alice: any

  it('are given on creation, as a pair, and shown on the admin entity', async () => {
    const res = expectStatus(await newUser('alice', { provider: 'ldapmain', extern_uid: 'uid=alice,ou=people,dc=example' }), 201)
    alice = UserPublic.parse(res.body)
    expect(alice.identities).toEqual([{ provider: 'ldapmain', extern_uid: 'uid=alice,ou=people,dc=example', saml_provider_id: null }])
    expect((await root.get(`/users/${alice.id}`)).body.identities).toEqual(alice.identities)
    const half = await newUser('half', { provider: 'ldapmain' })
    expect([half.status, half.text]).toEqual([400, '{"error":"extern_uid, provider provide all or none of parameters"}'])
  })

  it('name one user per provider, whatever the case; a refused creation leaves no user', async () => {
    const taken = await newUser('bob', { provider: 'ldapmain', extern_uid: 'UID=ALICE,OU=people,dc=example' })
    expect([taken.status, taken.body]).toEqual([400, { message: { 'identities.extern_uid': ['has already been taken'] } }])
    expect((await root.get('/users', { query: { username: 'bob' } })).body).toEqual([])
    // Another provider may use the same uid.
    expectStatus(await newUser('carol', { provider: 'github', extern_uid: 'uid=alice,ou=people,dc=example' }), 201)
  })

  it('are added or changed per provider by PUT /users/:id', async () => {
    let res = expectStatus(await root.put(`/users/${alice.id}`, { provider: 'saml', extern_uid: 'alice@idp' }), 200)
    expect(res.body.identities.map((i: any) => [i.provider, i.extern_uid])).toEqual([['ldapmain', 'uid=alice,ou=people,dc=example'], ['saml', 'alice@idp']])
    res = expectStatus(await root.put(`/users/${alice.id}`, { provider: 'saml', extern_uid: 'alice2@idp' }), 200)
    expect(res.body.identities.map((i: any) => i.extern_uid)).toEqual(['uid=alice,ou=people,dc=example', 'alice2@idp'])
    const half = await root.put(`/users/${alice.id}`, { extern_uid: 'x' })
    expect(half.body).toEqual({ error: 'extern_uid, provider provide all or none of parameters' })
  })

  it('find their user for administrators only', async () => {
    const found = expectStatus(await root.get('/users', { query: { provider: 'saml', extern_uid: 'ALICE2@idp' } }), 200)
    expect(found.body.map((u: any) => u.username)).toEqual(['alice'])
    expect((await root.get('/users', { query: { provider: 'github', extern_uid: 'alice2@idp' } })).body).toEqual([])
    const refused = await plain.api.get('/users', { query: { provider: 'saml', extern_uid: 'alice2@idp' } })
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await api(server).get('/users', { query: { provider: 'saml', extern_uid: 'alice2@idp', username: 'alice' } })).status).toBe(401)
  })

  it('are seen by their user on GET /user, not by others on GET /users/:id', async () => {
    const token = expectStatus(await root.post(`/users/${alice.id}/personal_access_tokens`, { name: 't', scopes: ['read_user'] }), 201).body.token
    expect((await api(server, token).get('/user')).body.identities).toHaveLength(2)
    expect((await plain.api.get(`/users/${alice.id}`)).body).not.toHaveProperty('identities')
  })

  it('are deleted by provider', async () => {
    expect((await plain.api.del(`/users/${alice.id}/identities/saml`)).status).toBe(403)
    expectStatus(await root.del(`/users/${alice.id}/identities/saml`), 204)
    expect((await root.get(`/users/${alice.id}`)).body.identities.map((i: any) => i.provider)).toEqual(['ldapmain'])
    const again = await root.del(`/users/${alice.id}/identities/saml`)
    expect([again.status, again.body]).toEqual([404, { message: '404 Identity Not Found' }])
    expect((await root.del('/users/999999/identities/saml')).body).toEqual({ message: '404 User Not Found' })
  })
})
