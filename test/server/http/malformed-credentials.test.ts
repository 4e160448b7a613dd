// Credentials a client mangled (bad percent-escapes in cookies, objects where strings belong) are refused or ignored, never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, request, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { postSignIn } from '../../helpers/web-sign-in.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

const BAD_COOKIE = { Cookie: '_service_session=%ZZ' }
const INVALID_GRANT = {
  error: 'invalid_grant',
  error_description: 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
}

describe('a session cookie with a broken percent-escape', () => {
  it('is ignored on an endpoint open to anonymous callers', async () => {
    const res = await request(server, 'GET', '/api/v4/projects', { headers: BAD_COOKIE })
    expect(res.status).toBe(200)
    expect(res.text).toBe('[]')
  })

  it('answers 401 where authentication is needed', async () => {
    const res = await request(server, 'GET', '/api/v4/user', { headers: BAD_COOKIE })
    expect(res.status).toBe(401)
    expect(res.text).toBe('{"message":"401 Unauthorized"}')
  })

  it('gives way to a token sent alongside it', async () => {
    const res = await request(server, 'GET', '/api/v4/user', { headers: { ...BAD_COOKIE, 'PRIVATE-TOKEN': alice.token } })
    expect(res.status).toBe(200)
    expect(res.body.username).toBe('alice')
  })

  it('signs out with 204 and clears the cookie', async () => {
    const res = await request(server, 'DELETE', '/users/sign_out', { headers: BAD_COOKIE })
    expect(res.status).toBe(204)
    expect(res.headers.get('set-cookie')).toBe('_service_session=; Path=/; HttpOnly; Max-Age=0')
  })
})

describe('objects where a credential string belongs', () => {
  // JSON.parse makes `toString` an own key, which String() then tries to call.
  const object = { toString: 1 }

  it.each([
    ['username', { grant_type: 'password', username: object, password: 'x' }],
    ['password', { grant_type: 'password', username: 'alice', password: object }],
    ['scope', { grant_type: 'password', username: 'alice', password: 'x', scope: object }],
    ['refresh_token', { grant_type: 'refresh_token', refresh_token: object }],
  ])('answers 400 to an OAuth grant whose %s is an object', async (name, json) => {
    const res = await request(server, 'POST', '/oauth/token', { json })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(name === 'scope' ? { error: 'invalid_scope', error_description: 'The requested scope is invalid, unknown, or malformed.' } : INVALID_GRANT)
  })

  it.each([
    ['login', { user: { login: object, password: 'x' } }],
    ['password', { login: 'alice', password: object }],
  ])('answers 401 to a sign-in whose %s is an object', async (_name, json) => {
    const res = await postSignIn(server, json, { json: true })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: 'Invalid login or password.' })
  })
})

describe('git over HTTP with a mangled Basic header', () => {
  it.each(['Basic %%%', 'Basic ', `Basic ${Buffer.from('alice:\u0000\uffff').toString('base64')}`, 'Basic Og=='])('answers the Basic challenge to %j', async (authorization) => {
    const res = await request(server, 'GET', '/alice/nothing.git/info/refs', { query: { service: 'git-upload-pack' }, headers: { Authorization: authorization } })
    expect(res.status).toBe(401)
    expect(res.text).toBe('HTTP Basic: Access denied')
  })
})
