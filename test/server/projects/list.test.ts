// GET /projects, GET /users/:user_id/projects and their shared filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project, ProjectSimple } from '../../../src/contract/entities/projects.js'
import { api, createProject, createUser, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
const ids: Record<string, number> = {}

const paths = (body: { path_with_namespace: string }[]) => body.map((p) => p.path_with_namespace)

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
  // Created in this order, so ids ascend a-pub < a-int < a-priv < b-pub < b-priv.
  ids.aPub = (await createProject(alice.api, { name: 'Apple', path: 'a-pub', visibility: 'public', description: 'fruit salad' })).id
  ids.aInt = (await createProject(alice.api, { name: 'Banana', path: 'a-int', visibility: 'internal', issues_enabled: false })).id
  ids.aPriv = (await createProject(alice.api, { name: 'Cherry', path: 'a-priv', visibility: 'private', topics: ['red'] })).id
  ids.bPub = (await createProject(bob.api, { name: 'Date', path: 'b-pub', visibility: 'public', topics: ['red', 'sweet'] })).id
  ids.bPriv = (await createProject(bob.api, { name: 'Elder', path: 'b-priv', visibility: 'private' })).id
  await alice.api.post(`/projects/${ids.aPriv}/members`, { user_id: carol.id, access_level: 20 })
  await carol.api.post(`/projects/${ids.bPub}/star`)
  await alice.api.post(`/projects/${ids.aInt}/archive`)
})
afterAll(() => server.close())

describe('GET /projects', () => {
  it('shows anonymous callers only public projects, in the simple form, newest first', async () => {
    const res = await api(server).get('/projects')
    expect(res.status).toBe(200)
    expect(paths(res.body)).toEqual(['bob/b-pub', 'alice/a-pub'])
    for (const p of res.body) ProjectSimple.strict().parse(p)
  })

  it('shows a signed-in user public and internal projects plus private ones they are a member of, in the full form', async () => {
    const res = await carol.api.get('/projects')
    expect(paths(res.body)).toEqual(['bob/b-pub', 'alice/a-priv', 'alice/a-int', 'alice/a-pub'])
    for (const p of res.body) Project.strict().parse(p)
    expect(res.body.find((p: any) => p.id === ids.aPriv).permissions.project_access).toEqual({ access_level: 20, notification_level: 3 })
  })

  it('shows an administrator every project', async () => {
    const res = await api(server, server.rootToken).get('/projects')
    expect(paths(res.body)).toEqual(['bob/b-priv', 'bob/b-pub', 'alice/a-priv', 'alice/a-int', 'alice/a-pub'])
  })

  it('returns the simple form with simple=true', async () => {
    const res = await carol.api.get('/projects', { query: { simple: true } })
    expect(res.body).toHaveLength(4)
    for (const p of res.body) ProjectSimple.strict().parse(p)
  })

  it.each([
    ['visibility=internal', { visibility: 'internal' }, ['alice/a-int']],
    ['search matches name, path or description', { search: 'SALAD' }, ['alice/a-pub']],
    ['owned (as alice)', { owned: true }, ['alice/a-priv', 'alice/a-int', 'alice/a-pub']],
    ['membership (as carol)', { membership: 'True' }, ['alice/a-priv']],
    ['archived=true', { archived: true }, ['alice/a-int']],
    ['archived=false', { archived: false }, ['bob/b-pub', 'alice/a-priv', 'alice/a-pub']],
    ['order_by=name&sort=asc', { order_by: 'name', sort: 'asc' }, ['alice/a-pub', 'alice/a-int', 'alice/a-priv', 'bob/b-pub']],
    ['order_by=id&sort=asc', { order_by: 'id', sort: 'asc' }, ['alice/a-pub', 'alice/a-int', 'alice/a-priv', 'bob/b-pub']],
    ['with_issues_enabled=1', { with_issues_enabled: 1 }, ['bob/b-pub', 'alice/a-priv', 'alice/a-pub']],
    ['topic', { topic: 'red' }, ['bob/b-pub', 'alice/a-priv']],
    ['id_after', { id_after: 0, order_by: 'id', sort: 'asc', per_page: 2 }, ['alice/a-pub', 'alice/a-int']],
  ])('filters with %s', async (name, query, expected) => {
    const as = name.includes('as alice') ? alice : carol
    const res = await as.api.get('/projects', { query: query as Record<string, string> })
    expect(res.status).toBe(200)
    expect(paths(res.body)).toEqual(expected)
  })

  it('filters starred=true by the caller stars', async () => {
    expect(paths((await carol.api.get('/projects', { query: { starred: true } })).body)).toEqual(['bob/b-pub'])
    expect((await alice.api.get('/projects', { query: { starred: true } })).body).toEqual([])
  })

  it('filters min_access_level by the caller level', async () => {
    expect(paths((await carol.api.get('/projects', { query: { min_access_level: 20 } })).body)).toEqual(['alice/a-priv'])
    expect((await carol.api.get('/projects', { query: { min_access_level: 30 } })).body).toEqual([])
  })

  it('answers an empty list to anonymous callers asking for owned or starred projects', async () => {
    for (const query of [{ owned: true }, { starred: true }, { membership: true }] as Record<string, boolean>[]) {
      const res = await api(server).get('/projects', { query })
      expect(res.status).toBe(200)
      expect(res.body).toEqual([])
      expect(res.headers.get('x-total')).toBe('0')
    }
  })

  it('adds statistics only when asked', async () => {
    const plain = await alice.api.get('/projects', { query: { owned: true } })
    expect(plain.body.every((p: any) => p.statistics === undefined)).toBe(true)
    const withStats = await alice.api.get('/projects', { query: { owned: true, statistics: true } })
    expect(withStats.body.map((p: any) => p.statistics?.commit_count)).toEqual([0, 0, 0])
  })
})

describe('GET /users/:user_id/projects', () => {
  it('lists the projects of a user by username or id, as the caller may see them', async () => {
    const byName = await carol.api.get('/users/alice/projects')
    const byId = await carol.api.get(`/users/${alice.id}/projects`)
    expect(paths(byName.body)).toEqual(['alice/a-priv', 'alice/a-int', 'alice/a-pub'])
    expect(byId.body).toEqual(byName.body)
    expect(paths((await api(server).get('/users/bob/projects')).body)).toEqual(['bob/b-pub'])
  })

  it('answers 404 User Not Found for an unknown user', async () => {
    const res = await carol.api.get('/users/nobody/projects')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 User Not Found' })
  })
})

describe('GET /projects/:id/users', () => {
  it('lists the users who can reach a project, searchable', async () => {
    const res = await alice.api.get(`/projects/${ids.aPriv}/users`)
    expect(res.body.map((u: any) => u.username)).toEqual(['alice', 'carol'])
    expect((await alice.api.get(`/projects/${ids.aPriv}/users`, { query: { search: 'car' } })).body.map((u: any) => u.username)).toEqual(['carol'])
  })
})
