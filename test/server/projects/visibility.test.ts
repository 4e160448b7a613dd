// Who sees what: public, internal and private projects for anonymous callers, non-members, guests and administrators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, type Api, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let owner: TestUser
let guest: TestUser
let stranger: TestUser
const ids: Record<'public' | 'internal' | 'private', number> = { public: 0, internal: 0, private: 0 }
let callers: Record<'anonymous' | 'stranger' | 'guest' | 'admin', Api>

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  owner = await createUser(server, 'owner')
  guest = await createUser(server, 'guest')
  stranger = await createUser(server, 'stranger')
  for (const v of ['public', 'internal', 'private'] as const) {
    ids[v] = (await createProject(owner.api, { name: `${v} project`, path: v, visibility: v })).id
    await owner.api.post(`/projects/${ids[v]}/members`, { user_id: guest.id, access_level: 10 })
  }
  callers = { anonymous: api(server), stranger: stranger.api, guest: guest.api, admin: api(server, server.rootToken) }
})
afterAll(() => server.close())

// [caller, visibility, may read]
const MATRIX = [
  ['anonymous', 'public', true], ['anonymous', 'internal', false], ['anonymous', 'private', false],
  ['stranger', 'public', true], ['stranger', 'internal', true], ['stranger', 'private', false],
  ['guest', 'public', true], ['guest', 'internal', true], ['guest', 'private', true],
  ['admin', 'public', true], ['admin', 'internal', true], ['admin', 'private', true],
] as const

describe.each(MATRIX)('%s reading a %s project', (caller, visibility, visible) => {
  const NOT_FOUND = '{"message":"404 Project Not Found"}'

  it(visible ? 'gets it by id and by path' : 'gets 404 Project Not Found by id and by path', async () => {
    for (const ref of [String(ids[visibility]), `owner%2F${visibility}`]) {
      const res = await callers[caller].get(`/projects/${ref}`)
      if (visible) {
        expect(res.status).toBe(200)
        expect(res.body.id).toBe(ids[visibility])
      } else {
        expect(res.status).toBe(404)
        expect(res.text).toBe(NOT_FOUND)
      }
    }
  })

  it(visible ? 'finds it in GET /projects' : 'does not find it in GET /projects', async () => {
    const res = await callers[caller].get('/projects', { query: { visibility } })
    expect(res.body.map((p: any) => p.id)).toEqual(visible ? [ids[visibility]] : [])
  })

  it(visible ? 'reads its members, users and languages' : 'gets 404 for its members, users, languages, forks and starrers', async () => {
    for (const sub of ['members', 'members/all', 'users', 'languages', 'forks', 'starrers']) {
      const res = await callers[caller].get(`/projects/${ids[visibility]}/${sub}`)
      // The Members API authenticates before it looks the project up (GitLab's `before { authenticate! }`).
      if (sub.startsWith('members') && caller === 'anonymous') expect([sub, res.status]).toEqual([sub, 401])
      else if (visible) expect([sub, res.status]).toEqual([sub, 200])
      else expect([sub, res.status, res.text]).toEqual([sub, 404, NOT_FOUND])
    }
  })

  if (!visible && caller !== 'anonymous') {
    it('gets 404, not 403, for every write', async () => {
      const id = ids[visibility]
      const writes: [string, string, unknown][] = [
        ['PUT', `/projects/${id}`, { description: 'x' }], ['DELETE', `/projects/${id}`, undefined],
        ['POST', `/projects/${id}/star`, undefined], ['POST', `/projects/${id}/archive`, undefined],
        ['POST', `/projects/${id}/fork`, undefined], ['POST', `/projects/${id}/members`, { user_id: 1, access_level: 30 }],
      ]
      for (const [method, path, json] of writes) {
        const res = await callers[caller].request(method, path, json === undefined ? {} : { json })
        expect([method, path, res.status, res.text]).toEqual([method, path, 404, NOT_FOUND])
      }
    })
  }
})

describe('a guest of a private project', () => {
  it('sees its own access level in permissions', async () => {
    const res = await guest.api.get(`/projects/${ids.private}`)
    expect(res.body.permissions).toEqual({ project_access: { access_level: 10, notification_level: 3 }, group_access: null })
  })

  it('loses sight of it once removed', async () => {
    const p = await createProject(owner.api, { name: 'Temporary', visibility: 'private' })
    await owner.api.post(`/projects/${p.id}/members`, { user_id: stranger.id, access_level: 10 })
    expect((await stranger.api.get(`/projects/${p.id}`)).status).toBe(200)
    expect((await owner.api.del(`/projects/${p.id}/members/${stranger.id}`)).status).toBe(204)
    expect((await stranger.api.get(`/projects/${p.id}`)).status).toBe(404)
  })
})

describe('changing visibility', () => {
  it('hides a project from anonymous callers when it turns private', async () => {
    const p = await createProject(owner.api, { name: 'Going Dark', visibility: 'public' })
    expect((await api(server).get(`/projects/${p.id}`)).status).toBe(200)
    expect((await owner.api.put(`/projects/${p.id}`, { visibility: 'private' })).body.visibility).toBe('private')
    expect((await api(server).get(`/projects/${p.id}`)).status).toBe(404)
    expect((await stranger.api.get(`/projects/${p.id}`)).status).toBe(404)
  })
})
