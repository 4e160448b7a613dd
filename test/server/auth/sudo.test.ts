// Sudo: an administrator token with the sudo scope acts as another user; GitLab's three failures, in GitLab's order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createUser, expectStatus, request, type Api, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { postSignIn } from '../../helpers/web-sign-in.js'

let server: TestServer
let root: Api
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
})
afterAll(() => server.close())

describe('sudo as an administrator with the sudo scope', () => {
  it('acts as the user named in the sudo query parameter', async () => {
    const res = await root.get('/user', { query: { sudo: 'alice' } })
    expect(res.status).toBe(200)
    expect(res.body.username).toBe('alice')
  })

  it('acts as the user whose id is in the Sudo header', async () => {
    const res = await root.get('/user', { headers: { Sudo: String(bob.id) } })
    expect(res.body.username).toBe('bob')
  })

  it('writes as that user', async () => {
    const res = await root.post('/projects', { name: 'Made By Sudo' }, { headers: { Sudo: 'alice' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ path_with_namespace: 'alice/made-by-sudo', creator_id: alice.id })
    expect((await alice.api.get(`/projects/${res.body.id}`)).body.permissions.project_access.access_level).toBe(50)
  })

  it('has only the target user rights: a private project of someone else is 404', async () => {
    const secret = expectStatus(await bob.api.post('/projects', { name: 'Bob Secret' }), 201).body
    expect((await root.get(`/projects/${secret.id}`)).status).toBe(200)
    const res = await root.get(`/projects/${secret.id}`, { query: { sudo: 'alice' } })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Project Not Found' })
  })

  it('also works with an OAuth token carrying the sudo scope', async () => {
    const t = (await request(server, 'POST', '/oauth/token', { form: { grant_type: 'password', username: 'root', password: 'root-password-123', scope: 'api sudo' } })).body
    const res = await request(server, 'GET', '/api/v4/user', { headers: { Authorization: `Bearer ${t.access_token}`, Sudo: 'bob' } })
    expect(res.body.username).toBe('bob')
  })
})

describe('sudo failures', () => {
  it('answers 403 Must be admin to use sudo to a non-administrator, even for an unknown user', async () => {
    for (const target of ['bob', 'ghost']) {
      const res = await alice.api.get('/user', { query: { sudo: target } })
      expect(res.status).toBe(403)
      expect(res.text).toBe('{"message":"403 Forbidden - Must be admin to use sudo"}')
    }
  })

  it('answers 403 insufficient_scope with scope sudo to an administrator token without the sudo scope', async () => {
    const t = expectStatus(await root.post('/users/1/personal_access_tokens', { name: 'no-sudo', scopes: ['api'] }), 201).body
    for (const target of ['alice', 'ghost']) {
      const res = await api(server, t.token).get('/user', { headers: { Sudo: target } })
      expect(res.status).toBe(403)
      expect(res.body).toEqual({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'sudo',
      })
    }
  })

  it('answers 404 naming the value for an unknown user', async () => {
    const res = await root.get('/user', { query: { sudo: 'ghost' } })
    expect(res.status).toBe(404)
    expect(res.text).toBe(`{"message":"404 User with ID or username 'ghost' Not Found"}`)
    const byId = await root.get('/user', { headers: { Sudo: '999999' } })
    expect(byId.body).toEqual({ message: "404 User with ID or username '999999' Not Found" })
  })

  it('answers 403 insufficient_scope to an administrator web session, which carries no token', async () => {
    const signIn = await postSignIn(server, { 'user[login]': 'root', 'user[password]': 'root-password-123' })
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]
    const res = await request(server, 'GET', '/api/v4/user', { headers: { Cookie: cookie, Sudo: 'alice' } })
    expect(res.status).toBe(403)
    expect(res.body.scope).toBe('sudo')
  })
})
