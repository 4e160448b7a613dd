// The web session: POST /users/sign_in sets `_service_session`; the cookie authenticates API reads, writes need the CSRF token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createUser, movableClock, request, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { postSignIn } from '../../helpers/web-sign-in.js'

const START = '2024-01-02T03:04:05.000Z'
const clock = movableClock(START)
let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

async function signIn(login = 'alice', password = alice.password) {
  const res = await postSignIn(server, { 'user[login]': login, 'user[password]': password })
  const setCookie = res.headers.get('set-cookie') ?? ''
  return { res, setCookie, cookie: setCookie.split(';')[0], csrf: res.headers.get('x-csrf-token') ?? '' }
}

describe('POST /users/sign_in', () => {
  it('redirects with a session cookie that is HttpOnly and expires in a week', async () => {
    const { res, setCookie } = await signIn()
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`${server.url}/`)
    expect(setCookie).toMatch(/^_service_session=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Lax; Expires=Tue, 09 Jan 2024 03:04:05 GMT$/)
  })

  it('answers 401 for a wrong password and sets no cookie', async () => {
    const { res, setCookie } = await signIn('alice', 'wrong-password')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: 'Invalid login or password.' })
    expect(setCookie).toBe('')
  })

  it('accepts the email address as login', async () => {
    expect((await signIn('alice@example.com')).res.status).toBe(302)
  })
})

describe('the session cookie', () => {
  it('authenticates a GET', async () => {
    const { cookie } = await signIn()
    const res = await request(server, 'GET', '/api/v4/user', { headers: { Cookie: cookie } })
    expect(res.status).toBe(200)
    expect(res.body.username).toBe('alice')
    expect(res.body.last_sign_in_at).toBe(START)
  })

  it('is found among other cookies', async () => {
    const { cookie } = await signIn()
    const res = await request(server, 'GET', '/api/v4/user', { headers: { Cookie: `theme=dark; ${cookie}; other=1` } })
    expect(res.body.username).toBe('alice')
  })

  it('does not authenticate a write without the CSRF token, and does with it', async () => {
    const { cookie, csrf } = await signIn()
    const without = await request(server, 'POST', '/api/v4/projects', { headers: { Cookie: cookie }, json: { name: 'No Csrf' } })
    expect(without.status).toBe(401)
    expect(without.body).toEqual({ message: '401 Unauthorized' })
    const withToken = await request(server, 'POST', '/api/v4/projects', { headers: { Cookie: cookie, 'X-CSRF-Token': csrf }, json: { name: 'With Csrf' } })
    expect(withToken.status).toBe(201)
    expect(withToken.body.owner.username).toBe('alice')
  })

  it('answers 401 for an unknown session', async () => {
    const res = await request(server, 'GET', '/api/v4/user', { headers: { Cookie: '_service_session=forged' } })
    expect(res.status).toBe(401)
  })

  it('stops working after a week', async () => {
    const { cookie } = await signIn()
    clock.advance(7 * 24 * 3600 * 1000 + 1000)
    expect((await request(server, 'GET', '/api/v4/user', { headers: { Cookie: cookie } })).status).toBe(401)
    clock.set(START)
  })

  it('stops working after DELETE /users/sign_out, which clears the cookie', async () => {
    const { cookie } = await signIn()
    const out = await request(server, 'DELETE', '/users/sign_out', { headers: { Cookie: cookie } })
    expect(out.status).toBe(204)
    expect(out.headers.get('set-cookie')).toBe('_service_session=; Path=/; HttpOnly; Max-Age=0')
    expect((await request(server, 'GET', '/api/v4/user', { headers: { Cookie: cookie } })).status).toBe(401)
  })

  it('gives way to a token sent alongside it', async () => {
    const bob = await createUser(server, 'bob')
    const { cookie } = await signIn()
    const res = await api(server, bob.token).get('/user', { headers: { Cookie: cookie } })
    expect(res.body.username).toBe('bob')
  })
})
