// Token transport (PRIVATE-TOKEN / private_token, Bearer / access_token), unknown, revoked and expired tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createUser, expectStatus, movableClock, request, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const clock = movableClock('2024-01-02T03:04:05.000Z')
let server: TestServer
let alice: TestUser

const REVOKED = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' }
const EXPIRED = { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' }

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

const whoami = async (opts: Parameters<typeof request>[3]) => {
  const res = await request(server, 'GET', '/api/v4/user', opts)
  return res.status === 200 ? res.body.username : res.status
}

describe('sending a personal access token', () => {
  it('is accepted in the PRIVATE-TOKEN header, in any letter case', async () => {
    expect(await whoami({ headers: { 'PRIVATE-TOKEN': alice.token } })).toBe('alice')
    expect(await whoami({ headers: { 'Private-Token': alice.token } })).toBe('alice')
  })

  it('is accepted in the private_token query parameter', async () => {
    expect(await whoami({ query: { private_token: alice.token } })).toBe('alice')
  })

  it('is accepted as a Bearer token and in access_token', async () => {
    expect(await whoami({ headers: { Authorization: `Bearer ${alice.token}` } })).toBe('alice')
    expect(await whoami({ query: { access_token: alice.token } })).toBe('alice')
  })

  it('is accepted in a form body field private_token', async () => {
    const res = await request(server, 'POST', '/api/v4/projects', { form: { private_token: alice.token, name: 'From Form' } })
    expect(res.status).toBe(201)
    expect(res.body.owner.username).toBe('alice')
  })

  it('records last_used_at', async () => {
    const self = (await alice.api.get('/personal_access_tokens/self')).body
    expect(self.last_used_at).toBe('2024-01-02T03:04:05.000Z')
  })
})

describe('sending an impersonation token', () => {
  it('works exactly like a personal access token, in the header or the query', async () => {
    const t = expectStatus(await api(server, server.rootToken).post(`/users/${alice.id}/impersonation_tokens`, { name: 'imp', scopes: ['api'] }), 201).body
    expect(await whoami({ headers: { 'PRIVATE-TOKEN': t.token } })).toBe('alice')
    expect(await whoami({ query: { private_token: t.token } })).toBe('alice')
    const created = await api(server, t.token).post('/projects', { name: 'Impersonated' })
    expect(created.body).toMatchObject({ path_with_namespace: 'alice/impersonated', creator_id: alice.id })
  })
})

describe('bad credentials', () => {
  it('answers 401 Unauthorized for an unknown token, also on endpoints open to anonymous callers', async () => {
    for (const path of ['/user', '/projects', '/version']) {
      const res = await api(server, 'glpat-not-a-real-token').get(path)
      expect([path, res.status, res.text]).toEqual([path, 401, '{"message":"401 Unauthorized"}'])
    }
    expect(await whoami({ headers: { Authorization: 'Bearer nope' } })).toBe(401)
  })

  it('answers 401 invalid_token for a revoked token, with a WWW-Authenticate challenge', async () => {
    const t = expectStatus(await api(server, server.rootToken).post(`/users/${alice.id}/personal_access_tokens`, { name: 'gone', scopes: ['api'] }), 201).body
    await api(server, t.token).del('/personal_access_tokens/self')
    const res = await api(server, t.token).get('/user')
    expect(res.status).toBe(401)
    expect(res.body).toEqual(REVOKED)
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+", error="invalid_token"/)
  })

  it('keeps a token valid through its expiry day and answers 401 invalid_token the day after', async () => {
    const t = expectStatus(await api(server, server.rootToken).post(`/users/${alice.id}/personal_access_tokens`, { name: 'brief', scopes: ['api'], expires_at: '2024-01-10' }), 201).body
    clock.set('2024-01-10T23:59:59.000Z')
    expect((await api(server, t.token).get('/user')).status).toBe(200)
    clock.set('2024-01-11T00:00:01.000Z')
    const res = await api(server, t.token).get('/user')
    expect(res.status).toBe(401)
    expect(res.body).toEqual(EXPIRED)
    const listed = (await alice.api.get('/personal_access_tokens')).body.find((x: any) => x.id === t.id)
    expect([listed.active, listed.revoked]).toEqual([false, false])
    clock.set('2024-01-02T03:04:05.000Z')
  })

  it('answers 401 to requests without credentials on endpoints that need them', async () => {
    for (const [method, path] of [['GET', '/user'], ['GET', '/namespaces'], ['POST', '/groups'], ['GET', '/version']]) {
      const res = await api(server).request(method, path)
      expect([method, path, res.status, res.text]).toEqual([method, path, 401, '{"message":"401 Unauthorized"}'])
    }
  })
})
