// GET /user, GET /users, GET /users/:id and POST /users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { User, UserBasic, UserPublic } from '../../../src/contract/entities/users.js'
import { api, createGroup, createUser, request, type Api, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let root: Api
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  bob = await createUser(server, 'bob')
})
afterAll(() => server.close())

describe('GET /user', () => {
  it('answers the caller as the UserPublic entity, without the admin fields', async () => {
    const res = await alice.api.get('/user')
    expect(res.status).toBe(200)
    expect(UserPublic.strict().parse(res.body)).toEqual({
      id: alice.id, username: 'alice', name: 'Alice Liddell', state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/${alice.id}/identicon.svg`, web_url: `${server.url}/alice`,
      created_at: NOW, bio: '', location: '', public_email: null, skype: '', linkedin: '', twitter: '', website_url: '',
      organization: '', job_title: '', pronouns: null, bot: false, work_information: null, followers: 0, following: 0, local_time: null,
      last_sign_in_at: null, confirmed_at: NOW, last_activity_on: null, email: 'alice@example.com', theme_id: 1, color_scheme_id: 1,
      projects_limit: 100000, current_sign_in_at: null, identities: [], can_create_group: true, can_create_project: true,
      two_factor_enabled: false, external: false, private_profile: false, commit_email: 'alice@example.com',
    })
  })

  it('adds is_admin and note for an administrator', async () => {
    const res = await root.get('/user')
    const me = UserPublic.strict().parse(res.body)
    expect([me.username, me.is_admin, me.note]).toEqual(['root', true, null])
  })

  it('answers 401 without credentials', async () => {
    const res = await api(server).get('/user')
    expect(res.status).toBe(401)
    expect(res.text).toBe('{"message":"401 Unauthorized"}')
  })
})

describe('GET /users', () => {
  it('lists UserBasic entries for an ordinary user, newest id first', async () => {
    const res = await alice.api.get('/users')
    expect(res.status).toBe(200)
    for (const u of res.body) UserBasic.strict().parse(u)
    expect(res.body.map((u: any) => u.username)).toEqual(['bob', 'alice', 'root'])
  })

  it('lists the admin entity for an administrator', async () => {
    const res = await root.get('/users', { query: { username: 'bob' } })
    expect(res.body).toHaveLength(1)
    expect(UserPublic.strict().parse(res.body[0])).toMatchObject({ username: 'bob', is_admin: false, email: 'bob@example.com' })
  })

  it.each([
    ['username', { username: 'alice' }, ['alice']],
    ['search over username, name and email', { search: 'liddell' }, ['alice']],
    ['active', { active: true }, ['bob', 'alice', 'root']],
    ['blocked', { blocked: true }, []],
    ['order_by=username&sort=asc', { order_by: 'username', sort: 'asc' }, ['alice', 'bob', 'root']],
  ])('filters by %s', async (_name, query, expected) => {
    const res = await alice.api.get('/users', { query })
    expect(res.body.map((u: any) => u.username)).toEqual(expected)
  })

  it('lets anonymous callers look a user up by username only', async () => {
    expect((await api(server).get('/users', { query: { username: 'alice' } })).body.map((u: any) => u.username)).toEqual(['alice'])
    const all = await api(server).get('/users')
    expect([all.status, all.text]).toEqual([403, '{"message":"403 Forbidden - Not authorized to access /api/v4/users"}'])
  })
})

describe('GET /users/:id', () => {
  it('answers the User entity to ordinary callers and anonymous ones', async () => {
    for (const as of [bob.api, api(server)]) {
      const res = await as.get(`/users/${alice.id}`)
      expect(res.status).toBe(200)
      expect(User.strict().parse(res.body)).toMatchObject({ id: alice.id, username: 'alice', name: 'Alice Liddell', created_at: NOW })
    }
  })

  it('answers the admin entity to an administrator', async () => {
    const res = await root.get(`/users/${alice.id}`)
    expect(UserPublic.strict().parse(res.body)).toMatchObject({ email: 'alice@example.com', is_admin: false })
  })

  it('answers 404 User Not Found', async () => {
    const res = await alice.api.get('/users/999999')
    expect(res.status).toBe(404)
    expect(res.text).toBe('{"message":"404 User Not Found"}')
  })

  it('answers 400 for an id that is not an integer', async () => {
    const res = await alice.api.get('/users/alice')
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { id: ['is invalid'] } })
  })
})

describe('POST /users', () => {
  it('creates a user, answering 201 with the admin entity, and the password signs in', async () => {
    const res = await root.post('/users', {
      username: 'carol', email: 'carol@example.com', name: 'Carol', password: 'carol-secret-1', bio: 'hi', can_create_group: false,
      projects_limit: 5,
    })
    expect(res.status).toBe(201)
    const carol = UserPublic.strict().parse(res.body)
    expect(carol).toMatchObject({ username: 'carol', email: 'carol@example.com', name: 'Carol', bio: 'hi', is_admin: false, can_create_group: false, projects_limit: 5 })
    expect((await root.get(`/users/${carol.id}`)).body).toEqual(res.body)
    const grant = await request(server, 'POST', '/oauth/token', { json: { grant_type: 'password', username: 'carol', password: 'carol-secret-1' } })
    expect(grant.status).toBe(200)
    const ns = await api(server, server.rootToken).get('/namespaces', { query: { search: 'carol' } })
    expect(ns.body.map((n: any) => [n.kind, n.full_path])).toEqual([['user', 'carol']])
  })

  it('creates an administrator with admin=true', async () => {
    const res = await root.post('/users', { username: 'dana', email: 'dana@example.com', name: 'Dana', password: 'dana-secret-1', admin: true })
    expect(res.body.is_admin).toBe(true)
  })

  it('answers 409 Email has already been taken, regardless of case', async () => {
    const res = await root.post('/users', { username: 'other', email: 'ALICE@example.com', name: 'Other', password: 'password-123' })
    expect(res.status).toBe(409)
    expect(res.text).toBe('{"message":"Email has already been taken"}')
  })

  it('answers 409 Username has already been taken, regardless of case or a group owning the path', async () => {
    const res = await root.post('/users', { username: 'Alice', email: 'alice2@example.com', name: 'Other', password: 'password-123' })
    expect(res.status).toBe(409)
    expect(res.text).toBe('{"message":"Username has already been taken"}')
    await createGroup(alice.api, { name: 'Grouped', path: 'grouped' })
    const clash = await root.post('/users', { username: 'grouped', email: 'grouped@example.com', name: 'G', password: 'password-123' })
    expect(clash.status).toBe(409)
    expect(clash.body).toEqual({ message: 'Username has already been taken' })
    expect((await root.get('/users', { query: { username: 'grouped' } })).body).toEqual([])
  })

  it('answers 400 when no password option is given', async () => {
    const res = await root.post('/users', { username: 'nopass', email: 'nopass@example.com', name: 'No Pass' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { password: ["can't be blank"] } })
  })

  it('answers 400 with model errors for a bad username, email and short password', async () => {
    const res = await root.post('/users', { username: '-bad', email: 'not-an-email', name: 'Bad', password: 'short' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { username: ['is invalid'], email: ['is invalid'], password: ['is too short (minimum is 8 characters)'] } })
  })

  it('answers 400 naming the first missing attribute', async () => {
    const res = await root.post('/users', { name: 'Nameless', password: 'password-123' })
    expect(res.status).toBe(400)
    expect(res.text).toBe('{"message":"400 (Bad request) \\"email\\" not given"}')
  })

  it('answers 403 to a non-administrator and creates nothing', async () => {
    const res = await alice.api.post('/users', { username: 'sneaky', email: 'sneaky@example.com', name: 'S', password: 'password-123' })
    expect(res.status).toBe(403)
    expect(res.text).toBe('{"message":"403 Forbidden"}')
    expect((await root.get('/users', { query: { username: 'sneaky' } })).body).toEqual([])
  })

  it('answers 401 without credentials', async () => {
    const res = await api(server).post('/users', { username: 'anon', email: 'anon@example.com', name: 'A', password: 'password-123' })
    expect(res.status).toBe(401)
  })
})
