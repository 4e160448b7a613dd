// Groups: create (top level and nested), read by id or path, list, visibility.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Group, GroupDetail } from '../../../src/contract/entities/groups.js'
import { ProjectSimple } from '../../../src/contract/entities/projects.js'
import { api, createGroup, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let root: Api
let alice: TestUser
let bob: TestUser
let pub: any
let internal: any
let priv: any

const names = (body: { full_path: string }[]) => body.map((g) => g.full_path)

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  pub = await createGroup(alice.api, { name: 'Open House', path: 'open-house', visibility: 'public', description: 'everyone welcome' })
  internal = await createGroup(alice.api, { name: 'Inner Circle', path: 'inner', visibility: 'internal' })
  priv = await createGroup(alice.api, { name: 'Back Room', path: 'back-room' })
})
afterAll(() => server.close())

describe('POST /groups', () => {
  it('creates a private group by default, its creator the owner', async () => {
    const res = await bob.api.post('/groups', { name: 'Bob Builders', path: 'bob-builders' })
    expect(res.status).toBe(201)
    expect(Group.strict().parse(res.body)).toEqual({
      id: res.body.id, web_url: `${server.url}/groups/bob-builders`, name: 'Bob Builders', path: 'bob-builders', description: '',
      visibility: 'private', share_with_group_lock: false, require_two_factor_authentication: false, two_factor_grace_period: 48,
      project_creation_level: 'developer', subgroup_creation_level: 'maintainer', lfs_enabled: true, default_branch: null,
      request_access_enabled: true, full_name: 'Bob Builders', full_path: 'bob-builders', created_at: NOW, parent_id: null, avatar_url: null,
    })
    const members = await bob.api.get(`/groups/${res.body.id}/members`)
    expect(members.body.map((m: any) => [m.username, m.access_level])).toEqual([['bob', 50]])
    const back = await bob.api.get(`/groups/${res.body.id}`)
    expect(GroupDetail.strict().parse(back.body)).toEqual({ ...res.body, projects: [], shared_projects: [] })
  })

  it('creates a subgroup under a group the caller maintains', async () => {
    const res = await alice.api.post('/groups', { name: 'Sub Team', path: 'sub', parent_id: pub.id, visibility: 'public' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ full_path: 'open-house/sub', full_name: 'Open House / Sub Team', parent_id: pub.id, web_url: `${server.url}/groups/open-house/sub` })
    expect((await api(server).get('/groups/open-house%2Fsub')).body.id).toBe(res.body.id)
  })

  it('answers 403 when creating a subgroup of a visible group the caller does not maintain', async () => {
    const res = await bob.api.post('/groups', { name: 'Squatter', path: 'squatter', parent_id: pub.id })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: '403 Forbidden' })
  })

  it('answers 404 Parent Group Not Found for a parent the caller cannot see', async () => {
    const res = await bob.api.post('/groups', { name: 'Hidden Child', path: 'hidden-child', parent_id: priv.id })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Parent Group Not Found' })
  })

  it('answers 400 Failed to save group for a path already taken, by a group or a user', async () => {
    for (const path of ['inner', 'INNER', 'bob']) {
      const res = await bob.api.post('/groups', { name: 'Copycat', path })
      expect([path, res.status, res.text]).toEqual([path, 400, '{"message":"Failed to save group {:path=>[\\"has already been taken\\"]}"}'])
    }
  })

  it('answers 400 for a reserved or invalid path', async () => {
    expect((await bob.api.post('/groups', { name: 'Api', path: 'api' })).body).toEqual({ message: { path: ['is a reserved name'] } })
    const bad = await bob.api.post('/groups', { name: 'Bad', path: 'has space' })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ message: { path: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"] } })
  })

  it('answers 400 naming a missing path', async () => {
    const res = await bob.api.post('/groups', { name: 'Pathless' })
    expect(res.status).toBe(400)
    expect(res.text).toBe('{"message":"400 (Bad request) \\"path\\" not given"}')
  })

  it('answers 403 to a user who may not create groups', async () => {
    const created = await root.post('/users', { username: 'nogroups', email: 'nogroups@example.com', name: 'N', password: 'password-123', can_create_group: false })
    const t = await root.post(`/users/${created.body.id}/personal_access_tokens`, { name: 't', scopes: ['api'] })
    const res = await api(server, t.body.token).post('/groups', { name: 'Forbidden', path: 'forbidden-group' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: '403 Forbidden' })
    expect((await root.get('/groups/forbidden-group')).status).toBe(404)
  })
})

describe('GET /groups/:id', () => {
  it('embeds the projects the caller may see, in the simple form', async () => {
    await createProject(alice.api, { name: 'Shown', namespace_id: pub.id, visibility: 'public' })
    await createProject(alice.api, { name: 'Members Only', namespace_id: pub.id, visibility: 'private' })
    const anon = await api(server).get('/groups/open-house')
    expect(anon.status).toBe(200)
    expect(anon.body.projects.map((p: any) => p.path)).toEqual(['shown'])
    for (const p of anon.body.projects) ProjectSimple.strict().parse(p)
    expect((await alice.api.get(`/groups/${pub.id}`)).body.projects.map((p: any) => p.path)).toEqual(['members-only', 'shown'])
    expect((await alice.api.get(`/groups/${pub.id}`, { query: { with_projects: false } })).body.projects).toEqual([])
  })

  it.each([
    ['anonymous', 'open-house', 200], ['anonymous', 'inner', 404], ['anonymous', 'back-room', 404],
    ['bob', 'open-house', 200], ['bob', 'inner', 200], ['bob', 'back-room', 404],
    ['root', 'back-room', 200],
  ])('answers %s reading %s with %i', async (who, path, status) => {
    const as = who === 'anonymous' ? api(server) : who === 'bob' ? bob.api : root
    const res = await as.get(`/groups/${path}`)
    expect(res.status).toBe(status)
    if (status === 404) expect(res.text).toBe('{"message":"404 Group Not Found"}')
  })

  it('shows a private group to its members', async () => {
    await alice.api.post(`/groups/${priv.id}/members`, { user_id: bob.id, access_level: 10 })
    expect((await bob.api.get(`/groups/${priv.id}`)).status).toBe(200)
    await alice.api.del(`/groups/${priv.id}/members/${bob.id}`)
    expect((await bob.api.get(`/groups/${priv.id}`)).status).toBe(404)
  })

  it('shows a private group to a member of a project inside it, or inside a group below it (GitLab\'s has_projects)', async () => {
    const sub = await createGroup(alice.api, { name: 'Closet', path: 'closet', parent_id: priv.id })
    const project = await createProject(alice.api, { name: 'Hidden', namespace_id: sub.id })
    expect((await bob.api.get(`/groups/${priv.id}`)).status).toBe(404)
    expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
    expect((await bob.api.get(`/groups/${priv.id}`)).status).toBe(200)
    expect((await bob.api.get(`/groups/${sub.id}`)).status).toBe(200)
    await alice.api.del(`/projects/${project.id}/members/${bob.id}`)
    expect((await bob.api.get(`/groups/${priv.id}`)).status).toBe(404)
    expectStatus(await alice.api.del(`/groups/${sub.id}`), 202)
  })

  it('answers 404 Group Not Found for a user namespace', async () => {
    expect((await alice.api.get('/groups/alice')).body).toEqual({ message: '404 Group Not Found' })
  })
})

describe('GET /groups', () => {
  it('lists public groups to anonymous callers, by name', async () => {
    const res = await api(server).get('/groups')
    expect(res.status).toBe(200)
    for (const g of res.body) Group.strict().parse(g)
    expect(names(res.body)).toEqual(['open-house', 'open-house/sub'])
  })

  it('lists public, internal and member groups to a user', async () => {
    expect(names((await bob.api.get('/groups')).body)).toEqual(['bob-builders', 'inner', 'open-house', 'open-house/sub'])
  })

  it('lists every group to an administrator', async () => {
    expect(names((await root.get('/groups')).body)).toEqual(['back-room', 'bob-builders', 'inner', 'open-house', 'open-house/sub'])
  })

  it.each([
    ['owned', { owned: true }, ['bob-builders']],
    ['search', { search: 'circle' }, ['inner']],
    ['top_level_only', { top_level_only: true }, ['bob-builders', 'inner', 'open-house']],
    ['visibility', { visibility: 'internal' }, ['inner']],
    ['order_by=id&sort=desc', { order_by: 'id', sort: 'desc' }, ['open-house/sub', 'bob-builders', 'inner', 'open-house']],
    ['min_access_level', { min_access_level: 50 }, ['bob-builders']],
    ['all_available=false', { all_available: false }, ['bob-builders']],
  ])('filters by %s', async (_name, query, expected) => {
    expect(names((await bob.api.get('/groups', { query: query as Record<string, any> })).body)).toEqual(expected)
  })

  it('skips the groups in skip_groups[]', async () => {
    const res = await bob.api.get('/groups', { query: { skip_groups: [internal.id, pub.id] } })
    expect(names(res.body)).toEqual(['bob-builders', 'open-house/sub'])
  })
})
