// X-Forwarded-Proto is believed only from the proxies `collab serve --trusted-proxy` names; from anyone else it is ignored.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, rawRequest, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { signInForm } from '../../helpers/web-sign-in.js'

let server: TestServer
let alice: TestUser
let project: any

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  project = await createProject(alice.api, { name: 'Demo', visibility: 'public' })
})
afterAll(() => server.close())
afterEach(() => { server.app.trustedProxies = [] })

const HTTPS = { Host: 'git.example.test', 'X-Forwarded-Proto': 'https' }
const webUrl = async (headers: Record<string, string>) => (await rawRequest(server, { path: `/api/v4/projects/${project.id}`, headers })).body.web_url
async function signIn(headers: Record<string, string>) {
  const { cookie, token } = await signInForm(server)
  return rawRequest(server, {
    method: 'POST', path: '/users/sign_in', headers: { ...headers, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login: 'alice', password: alice.password, authenticity_token: token }).toString(),
  })
}

describe('without a trusted proxy', () => {
  it('builds http URLs whatever X-Forwarded-Proto says', async () => {
    expect(await webUrl(HTTPS)).toBe('http://git.example.test/alice/demo')
  })

  it('builds http pagination links whatever X-Forwarded-Proto says', async () => {
    const res = await rawRequest(server, { path: '/api/v4/projects?per_page=1', headers: HTTPS })
    expect(res.headers.get('link')).toBe('<http://git.example.test/api/v4/projects?per_page=1&page=1>; rel="first", <http://git.example.test/api/v4/projects?per_page=1&page=1>; rel="last"')
  })

  it('sets a session cookie without Secure and redirects to http', async () => {
    const res = await signIn(HTTPS)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('http://git.example.test/')
    expect(res.headers.get('set-cookie')).not.toContain('Secure')
  })
})

describe('from a trusted proxy', () => {
  it('builds https URLs when it says https, and http when it says nothing', async () => {
    server.app.trustedProxies = ['127.0.0.1']
    expect(await webUrl(HTTPS)).toBe('https://git.example.test/alice/demo')
    expect(await webUrl({ Host: 'git.example.test' })).toBe('http://git.example.test/alice/demo')
  })

  it('matches the IPv4 address of a dual-stack socket', async () => {
    server.app.trustedProxies = ['::ffff:127.0.0.1']
    expect(await webUrl(HTTPS)).toBe('https://git.example.test/alice/demo')
  })

  it('ignores a scheme other than http and https', async () => {
    server.app.trustedProxies = ['127.0.0.1']
    expect(await webUrl({ Host: 'git.example.test', 'X-Forwarded-Proto': 'javascript' })).toBe('http://git.example.test/alice/demo')
  })

  it('sets a Secure session cookie and redirects to https', async () => {
    server.app.trustedProxies = ['127.0.0.1']
    const res = await signIn(HTTPS)
    expect(res.headers.get('location')).toBe('https://git.example.test/')
    expect(res.headers.get('set-cookie')).toMatch(/; Secure$/)
  })

  it('is not trusted when the proxy list names another address', async () => {
    server.app.trustedProxies = ['10.0.0.1']
    expect(await webUrl(HTTPS)).toBe('http://git.example.test/alice/demo')
  })
})
