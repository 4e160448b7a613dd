// OAuth 2: the password grant and refresh at POST /oauth/token, revoke, and access tokens as Bearer / access_token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OAuthToken } from '../../../src/contract/entities/users.js'
import { api, createUser, movableClock, request, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const START = '2024-01-02T03:04:05.000Z'
const clock = movableClock(START)
let server: TestServer
let alice: TestUser

const INVALID_GRANT = {
  error: 'invalid_grant',
  error_description: 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
}

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

const grant = (params: Record<string, string>, as: 'json' | 'form' = 'form') =>
  request(server, 'POST', '/oauth/token', as === 'json' ? { json: params } : { form: params })
const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } })

describe('the password grant', () => {
  it('answers 200 with a Bearer token of two hours, not cached', async () => {
    const res = await grant({ grant_type: 'password', username: 'alice', password: alice.password })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const t = OAuthToken.strict().parse(res.body)
    expect(t).toEqual({
      access_token: t.access_token, token_type: 'Bearer', expires_in: 7200, refresh_token: t.refresh_token, scope: 'api',
      created_at: Date.parse(START) / 1000,
    })
    expect(t.access_token).not.toBe(t.refresh_token)
  })

  it('gives a token that works as Bearer and as access_token, and records the sign-in', async () => {
    const t = (await grant({ grant_type: 'password', username: 'alice', password: alice.password }, 'json')).body
    const me = await request(server, 'GET', '/api/v4/user', bearer(t.access_token))
    expect(me.body.username).toBe('alice')
    expect(me.body.last_sign_in_at).toBe(START)
    expect((await request(server, 'GET', '/api/v4/user', { query: { access_token: t.access_token } })).body.username).toBe('alice')
    expect((await request(server, 'POST', '/api/v4/projects', { ...bearer(t.access_token), json: { name: 'Via OAuth' } })).status).toBe(201)
  })

  it('accepts the email address as username', async () => {
    expect((await grant({ grant_type: 'password', username: 'alice@example.com', password: alice.password })).status).toBe(200)
  })

  it('issues a narrower token when asked for a scope', async () => {
    const t = (await grant({ grant_type: 'password', username: 'alice', password: alice.password, scope: 'read_user' })).body
    expect(t.scope).toBe('read_user')
    expect((await request(server, 'GET', '/api/v4/user', bearer(t.access_token))).status).toBe(200)
    const write = await request(server, 'POST', '/api/v4/projects', { ...bearer(t.access_token), json: { name: 'Nope' } })
    expect(write.status).toBe(403)
    expect(write.body.error).toBe('insufficient_scope')
  })

  it('answers 400 invalid_grant for a wrong password or unknown user', async () => {
    for (const params of [{ username: 'alice', password: 'wrong-password' }, { username: 'ghost', password: 'whatever' }]) {
      const res = await grant({ grant_type: 'password', ...params })
      expect(res.status).toBe(400)
      expect(res.body).toEqual(INVALID_GRANT)
    }
  })

  it('answers 400 invalid_scope for an unknown scope', async () => {
    const res = await grant({ grant_type: 'password', username: 'alice', password: alice.password, scope: 'api everything' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'invalid_scope', error_description: 'The requested scope is invalid, unknown, or malformed.' })
  })

  it('answers 400 unsupported_grant_type for another grant', async () => {
    const res = await grant({ grant_type: 'client_credentials' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported by the authorization server.' })
  })

  it('answers 400, never 500, to a malformed body', async () => {
    const res = await request(server, 'POST', '/oauth/token', { body: '{"grant_type":', headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: '400 Bad request - malformed JSON in the request body' })
  })
})

describe('expiry and refresh', () => {
  it('expires the access token after two hours with 401 invalid_token', async () => {
    const t = (await grant({ grant_type: 'password', username: 'alice', password: alice.password })).body
    clock.advance(7200 * 1000 - 1000)
    expect((await request(server, 'GET', '/api/v4/user', bearer(t.access_token))).status).toBe(200)
    clock.advance(2000)
    const res = await request(server, 'GET', '/api/v4/user', bearer(t.access_token))
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' })
    clock.set(START)
  })

  it('refreshes: a new pair works, the old access token is revoked, the old refresh token is spent', async () => {
    const first = (await grant({ grant_type: 'password', username: 'alice', password: alice.password, scope: 'read_api' })).body
    const res = await grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token })
    expect(res.status).toBe(200)
    const second = OAuthToken.strict().parse(res.body)
    expect(second.scope).toBe('read_api')
    expect(second.access_token).not.toBe(first.access_token)
    expect((await request(server, 'GET', '/api/v4/user', bearer(second.access_token))).body.username).toBe('alice')
    const old = await request(server, 'GET', '/api/v4/user', bearer(first.access_token))
    expect(old.status).toBe(401)
    expect(old.body.error).toBe('invalid_token')
    const replay = await grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token })
    expect(replay.status).toBe(400)
    expect(replay.body).toEqual(INVALID_GRANT)
  })

  it('refreshes an expired access token', async () => {
    const t = (await grant({ grant_type: 'password', username: 'alice', password: alice.password })).body
    clock.advance(3 * 3600 * 1000)
    const res = await grant({ grant_type: 'refresh_token', refresh_token: t.refresh_token })
    expect(res.status).toBe(200)
    expect((await request(server, 'GET', '/api/v4/user', bearer(res.body.access_token))).status).toBe(200)
    clock.set(START)
  })

  it('answers 400 invalid_grant for an unknown refresh token', async () => {
    const res = await grant({ grant_type: 'refresh_token', refresh_token: 'nonsense' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(INVALID_GRANT)
  })
})

describe('POST /oauth/revoke', () => {
  it('revokes an access token, after which it answers 401', async () => {
    const t = (await grant({ grant_type: 'password', username: 'alice', password: alice.password })).body
    const res = await request(server, 'POST', '/oauth/revoke', { form: { token: t.access_token } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({})
    expect((await request(server, 'GET', '/api/v4/user', bearer(t.access_token))).status).toBe(401)
  })

  it('does not revoke personal access tokens', async () => {
    await request(server, 'POST', '/oauth/revoke', { form: { token: alice.token } })
    expect((await api(server, alice.token).get('/user')).status).toBe(200)
  })
})
