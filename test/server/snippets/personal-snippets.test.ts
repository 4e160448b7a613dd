// Personal snippets: the caller's own list, public and all lists, reads by visibility, author-only writes, defaults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { userBasic } from '../../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
const made: Record<string, any> = {}

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  for (const visibility of ['public', 'internal', 'private']) {
    made[visibility] = expectStatus(await alice.api.post('/snippets', { title: visibility, file_name: `${visibility}.txt`, content: visibility, visibility }), 201).body
  }
})
afterAll(() => server.close())

const ids = (reply: { body: any[] }) => reply.body.map((s) => s.id)

describe('personal snippets', () => {
  it('answers the exact entity, without a project', async () => {
    const s = made.public
    const web = `${server.url}/-/snippets/${s.id}`
    expect(s).toEqual({
      id: s.id, title: 'public', description: null, visibility: 'public', author: userBasic(server, alice), created_at: NOW, updated_at: NOW,
      project_id: null, web_url: web, raw_url: `${web}/raw`, file_name: 'public.txt', files: [{ path: 'public.txt', raw_url: `${web}/raw/main/public.txt` }],
    })
    expect((await api(server).get(`/snippets/${s.id}`)).body).toEqual(s)
    expect((await api(server).get(`/snippets/${s.id}/raw`)).text).toBe('public')
  })

  it('lists the caller\'s own, all public ones, and for /all what the caller may read', async () => {
    expect(ids(await alice.api.get('/snippets'))).toEqual([made.private.id, made.internal.id, made.public.id])
    expect(ids(await bob.api.get('/snippets'))).toEqual([])
    expect(ids(await bob.api.get('/snippets/public'))).toEqual([made.public.id])
    expect(ids(await bob.api.get('/snippets/all'))).toEqual([made.internal.id, made.public.id])
    expect(ids(await api(server, server.rootToken).get('/snippets/all'))).toEqual([made.private.id, made.internal.id, made.public.id])
    expect((await api(server).get('/snippets')).status).toBe(401)
  })

  it('reads by visibility: internal for signed-in users, private for its author and administrators', async () => {
    expect((await bob.api.get(`/snippets/${made.internal.id}`)).status).toBe(200)
    expect((await api(server).get(`/snippets/${made.internal.id}`)).body).toEqual({ message: '404 Snippet Not Found' })
    expect((await bob.api.get(`/snippets/${made.private.id}`)).body).toEqual({ message: '404 Snippet Not Found' })
    expect((await bob.api.get(`/snippets/${made.private.id}/raw`)).status).toBe(404)
    expect((await api(server, server.rootToken).get(`/snippets/${made.private.id}`)).status).toBe(200)
  })

  it('lets only its author change or delete it (403 for others who can read it)', async () => {
    const s = expectStatus(await alice.api.post('/snippets', { title: 'Mine', file_name: 'm', content: 'm', visibility: 'public' }), 201).body
    expect((await bob.api.put(`/snippets/${s.id}`, { title: 'Bob' })).status).toBe(403)
    expect((await bob.api.del(`/snippets/${s.id}`)).status).toBe(403)
    const up = expectStatus(await alice.api.put(`/snippets/${s.id}`, { content: 'new', visibility: 'private' }), 200).body
    expect([up.title, up.visibility]).toEqual(['Mine', 'private'])
    expect((await alice.api.get(`/snippets/${s.id}/raw`)).text).toBe('new')
    expect((await alice.api.del(`/snippets/${s.id}`)).status).toBe(204)
    expect((await alice.api.get(`/snippets/${s.id}`)).status).toBe(404)
  })

  it('takes default_snippet_visibility when none is given, and refuses a restricted level', async () => {
    const root = api(server, server.rootToken)
    expectStatus(await root.put('/application/settings', { default_snippet_visibility: 'internal', restricted_visibility_levels: ['public'] }), 200)
    try {
      expect(expectStatus(await bob.api.post('/snippets', { title: 'D', file_name: 'd', content: 'd' }), 201).body.visibility).toBe('internal')
      const refused = await bob.api.post('/snippets', { title: 'P', file_name: 'p', content: 'p', visibility: 'public' })
      expect([refused.status, refused.body]).toEqual([400, { message: { visibility_level: ['Public visibility has been restricted by your GitLab administrator'] } }])
      expect(ids(await bob.api.get('/snippets')).length).toBe(1)
    } finally {
      expectStatus(await root.put('/application/settings', { default_snippet_visibility: 'private', restricted_visibility_levels: [] }), 200)
    }
  })

  it('lists in /all the project snippets the caller may read too', async () => {
    const carol = await createUser(server, 'carol')
    const personal = ids(await carol.api.get('/snippets/all'))
    const open = expectStatus(await alice.api.post('/projects', { name: 'open', visibility: 'public' }), 201).body
    const closed = expectStatus(await alice.api.post('/projects', { name: 'closed', visibility: 'private' }), 201).body
    const make = async (p: any, visibility: string) =>
      expectStatus(await alice.api.post(`/projects/${p.id}/snippets`, { title: visibility, file_name: 'f', content: 'c', visibility }), 201).body.id
    const openPublic = await make(open, 'public')
    await make(open, 'private')
    const closedPrivate = await make(closed, 'private')
    expect(ids(await carol.api.get('/snippets/all'))).toEqual([openPublic, ...personal])
    expectStatus(await alice.api.post(`/projects/${closed.id}/members`, { user_id: carol.id, access_level: 10 }), 201)
    expect(ids(await carol.api.get('/snippets/all'))).toEqual([closedPrivate, openPublic, ...personal])
    expectStatus(await alice.api.put(`/projects/${closed.id}`, { snippets_enabled: false }), 200)
    expect(ids(await carol.api.get('/snippets/all'))).toEqual([openPublic, ...personal])
    for (const p of [open, closed]) expect((await alice.api.del(`/projects/${p.id}`)).status).toBe(202)
  })

  it('keeps user agent details for administrators, and ids of other kinds out', async () => {
    const root = api(server, server.rootToken)
    expect((await root.get(`/snippets/${made.public.id}/user_agent_detail`)).body).toEqual({ user_agent: 'node', ip_address: '127.0.0.1', spamfilter_submitted: false })
    expect((await alice.api.get(`/snippets/${made.public.id}/user_agent_detail`)).status).toBe(403)
    const project = expectStatus(await alice.api.post('/projects', { name: 'p', visibility: 'public' }), 201).body
    const ps = expectStatus(await alice.api.post(`/projects/${project.id}/snippets`, { title: 'P', file_name: 'p', content: 'p', visibility: 'public' }), 201).body
    expect((await alice.api.get(`/snippets/${ps.id}`)).status).toBe(404)
    expect((await alice.api.get(`/projects/${project.id}/snippets/${made.public.id}`)).status).toBe(404)
    expect((await alice.api.get('/snippets/abc')).body).toEqual({ message: { id: ['is invalid'] } })
  })
})
