// GET /namespaces and /namespaces/:id: the caller's own namespace and the groups they belong to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Namespace } from '../../../src/contract/entities/groups.js'
import { api, createGroup, createUser, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let bob: TestUser
let team: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice', { name: 'Alice A' })
  bob = await createUser(server, 'bob')
  team = await createGroup(alice.api, { name: 'Team', path: 'team' })
  await createGroup(bob.api, { name: 'Bobs', path: 'bobs', visibility: 'public' })
  await alice.api.post(`/groups/${team.id}/members`, { user_id: bob.id, access_level: 30 })
})
afterAll(() => server.close())

describe('GET /namespaces', () => {
  it('lists the caller user namespace and member groups', async () => {
    const res = await alice.api.get('/namespaces')
    expect(res.status).toBe(200)
    for (const n of res.body) Namespace.strict().parse(n)
    expect(res.body).toEqual([
      { id: res.body[0].id, name: 'Alice A', path: 'alice', kind: 'user', full_path: 'alice', parent_id: null, avatar_url: `${server.url}/uploads/-/system/user/avatar/${alice.id}/identicon.svg`, web_url: `${server.url}/alice` },
      { id: team.id, name: 'Team', path: 'team', kind: 'group', full_path: 'team', parent_id: null, avatar_url: null, web_url: `${server.url}/groups/team` },
    ])
  })

  it('filters by search and owned_only', async () => {
    expect((await bob.api.get('/namespaces')).body.map((n: any) => n.full_path)).toEqual(['bob', 'team', 'bobs'])
    expect((await bob.api.get('/namespaces', { query: { owned_only: true } })).body.map((n: any) => n.full_path)).toEqual(['bob', 'bobs'])
    expect((await bob.api.get('/namespaces', { query: { search: 'tea' } })).body.map((n: any) => n.full_path)).toEqual(['team'])
  })

  it('lists every namespace for an administrator', async () => {
    const res = await api(server, server.rootToken).get('/namespaces')
    expect(res.body.map((n: any) => n.full_path)).toEqual(['root', 'alice', 'bob', 'team', 'bobs'])
  })

  it('answers 401 without credentials', async () => {
    expect((await api(server).get('/namespaces')).status).toBe(401)
  })
})

describe('GET /namespaces/:id', () => {
  it('reads one by id or by path', async () => {
    expect((await bob.api.get(`/namespaces/${team.id}`)).body.full_path).toBe('team')
    expect((await bob.api.get('/namespaces/bob')).body.kind).toBe('user')
  })

  it('answers 404 Namespace Not Found for a namespace the caller does not hold', async () => {
    for (const ref of ['alice', 'bobs-nope', '999999']) {
      const res = await bob.api.get(`/namespaces/${ref}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: '404 Namespace Not Found' })
    }
  })
})
