// Project members: list (direct and inherited), get, add, edit, remove, and who may do what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Member } from '../../../src/contract/entities/groups.js'
import { api, createGroup, createProject, createUser, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let owner: TestUser
let maintainer: TestUser
let developer: TestUser
let outsider: TestUser
let project: any

const levels = (body: { username: string; access_level: number }[]) => body.map((m) => [m.username, m.access_level])

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  owner = await createUser(server, 'owner', { name: 'Olivia Owner' })
  maintainer = await createUser(server, 'maintainer')
  developer = await createUser(server, 'developer')
  outsider = await createUser(server, 'outsider')
  project = await createProject(owner.api, { name: 'Team Work' })
  await owner.api.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 })
  await owner.api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 })
})
afterAll(() => server.close())

describe('GET /projects/:id/members', () => {
  it('lists direct members as UserBasic plus access_level, created_at and expires_at', async () => {
    const res = await developer.api.get(`/projects/${project.id}/members`)
    expect(res.status).toBe(200)
    for (const m of res.body) Member.strict().parse(m)
    expect(res.body[0]).toEqual({
      id: owner.id, username: 'owner', name: 'Olivia Owner', state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/${owner.id}/identicon.svg`, web_url: `${server.url}/owner`,
      access_level: 50, created_at: NOW, expires_at: null,
    })
    expect(levels(res.body)).toEqual([['owner', 50], ['maintainer', 40], ['developer', 30]])
  })

  it('filters by query and user_ids', async () => {
    expect(levels((await owner.api.get(`/projects/${project.id}/members`, { query: { query: 'maint' } })).body)).toEqual([['maintainer', 40]])
    const byIds = await owner.api.get(`/projects/${project.id}/members`, { query: { user_ids: [owner.id, developer.id] } })
    expect(levels(byIds.body)).toEqual([['owner', 50], ['developer', 30]])
  })

  it('gets one direct member, and 404 Member Not Found for anyone else', async () => {
    const res = await owner.api.get(`/projects/${project.id}/members/${developer.id}`)
    expect(res.status).toBe(200)
    expect(Member.strict().parse(res.body).access_level).toBe(30)
    const missing = await owner.api.get(`/projects/${project.id}/members/${outsider.id}`)
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ message: '404 Member Not Found' })
  })
})

describe('inherited members', () => {
  it('lists group members under /members/all with the higher of group and project levels', async () => {
    const group = await createGroup(owner.api, { name: 'Guild', path: 'guild' })
    await owner.api.post(`/groups/${group.id}/members`, { user_id: developer.id, access_level: 20 })
    await owner.api.post(`/groups/${group.id}/members`, { user_id: outsider.id, access_level: 10 })
    const p = await createProject(owner.api, { name: 'Guild Work', namespace_id: group.id })
    await owner.api.post(`/projects/${p.id}/members`, { user_id: developer.id, access_level: 30 })

    expect(levels((await owner.api.get(`/projects/${p.id}/members`)).body)).toEqual([['owner', 40], ['developer', 30]])
    expect(levels((await owner.api.get(`/projects/${p.id}/members/all`)).body)).toEqual([['owner', 50], ['developer', 30], ['outsider', 10]])
    const one = await owner.api.get(`/projects/${p.id}/members/all/${outsider.id}`)
    expect(one.status).toBe(200)
    expect(Member.strict().parse(one.body).access_level).toBe(10)
    expect((await owner.api.get(`/projects/${p.id}/members/${outsider.id}`)).status).toBe(404)
    // The inherited guest sees the private project.
    expect((await outsider.api.get(`/projects/${p.id}`)).status).toBe(200)
  })
})

describe('POST /projects/:id/members', () => {
  it('adds a member with an expiry date and reads it back', async () => {
    const newcomer = await createUser(server, 'newcomer')
    const res = await maintainer.api.post(`/projects/${project.id}/members`, { user_id: newcomer.id, access_level: 20, expires_at: '2030-01-01' })
    expect(res.status).toBe(201)
    expect(Member.strict().parse(res.body)).toMatchObject({ username: 'newcomer', access_level: 20, created_at: NOW, expires_at: '2030-01-01' })
    expect((await owner.api.get(`/projects/${project.id}/members/${newcomer.id}`)).body).toEqual(res.body)
    expect((await newcomer.api.get(`/projects/${project.id}`)).status).toBe(200)
  })

  it('accepts user_id and access_level as form strings', async () => {
    const formUser = await createUser(server, 'formuser')
    const res = await owner.api.request('POST', `/projects/${project.id}/members`, { form: { user_id: String(formUser.id), access_level: '10' } })
    expect(res.status).toBe(201)
    expect(res.body.access_level).toBe(10)
  })

  it('answers 409 Member already exists', async () => {
    const res = await owner.api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 })
    expect(res.status).toBe(409)
    expect(res.text).toBe('{"message":"Member already exists"}')
  })

  it('answers 404 User Not Found for an unknown user', async () => {
    const res = await owner.api.post(`/projects/${project.id}/members`, { user_id: 999999, access_level: 30 })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 User Not Found' })
  })

  it('answers 400 for an access level that does not exist', async () => {
    const res = await owner.api.post(`/projects/${project.id}/members`, { user_id: outsider.id, access_level: 35 })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { access_level: ['does not have a valid value'] } })
  })

  it('answers 400 naming the missing attribute', async () => {
    const res = await owner.api.post(`/projects/${project.id}/members`, { access_level: 30 })
    expect(res.status).toBe(400)
    expect(res.text).toBe('{"message":"400 (Bad request) \\"user_id\\" not given"}')
  })

  it('answers 400 for an expiry date in the past', async () => {
    const res = await owner.api.post(`/projects/${project.id}/members`, { user_id: outsider.id, access_level: 30, expires_at: '2020-01-01' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } })
  })

  it('answers 403 to a developer', async () => {
    const res = await developer.api.post(`/projects/${project.id}/members`, { user_id: outsider.id, access_level: 10 })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: '403 Forbidden' })
    expect((await owner.api.get(`/projects/${project.id}/members/${outsider.id}`)).status).toBe(404)
  })

  it('answers 403 to a maintainer granting the owner level', async () => {
    const res = await maintainer.api.post(`/projects/${project.id}/members`, { user_id: outsider.id, access_level: 50 })
    expect(res.status).toBe(403)
    expect((await owner.api.get(`/projects/${project.id}/members/${outsider.id}`)).status).toBe(404)
  })
})

describe('PUT /projects/:id/members/:user_id', () => {
  it('changes the level and reads it back', async () => {
    const res = await owner.api.put(`/projects/${project.id}/members/${developer.id}`, { access_level: 20 })
    expect(res.status).toBe(200)
    expect(Member.strict().parse(res.body).access_level).toBe(20)
    expect((await owner.api.get(`/projects/${project.id}/members/${developer.id}`)).body.access_level).toBe(20)
    await owner.api.put(`/projects/${project.id}/members/${developer.id}`, { access_level: 30 })
  })

  it('answers 403 to a maintainer touching an owner', async () => {
    const res = await maintainer.api.put(`/projects/${project.id}/members/${owner.id}`, { access_level: 30 })
    expect(res.status).toBe(403)
    expect((await owner.api.get(`/projects/${project.id}/members/${owner.id}`)).body.access_level).toBe(50)
  })

  it('answers 404 Member Not Found for a non-member', async () => {
    const res = await owner.api.put(`/projects/${project.id}/members/${outsider.id}`, { access_level: 30 })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Member Not Found' })
  })
})

describe('the holder of a personal namespace', () => {
  it('may neither demote nor remove themselves from their own project, so they cannot lock themselves out', async () => {
    const demote = await owner.api.put(`/projects/${project.id}/members/${owner.id}`, { access_level: 10 })
    expect(demote.status).toBe(403)
    expect(demote.body).toEqual({ message: '403 Forbidden' })
    const leave = await owner.api.del(`/projects/${project.id}/members/${owner.id}`)
    expect(leave.status).toBe(403)
    expect((await owner.api.get(`/projects/${project.id}/members/${owner.id}`)).body.access_level).toBe(50)
    expect((await owner.api.get(`/projects/${project.id}`)).status).toBe(200)
  })

  it('keeps Owner even against an administrator', async () => {
    const root = api(server, server.rootToken)
    expect((await root.del(`/projects/${project.id}/members/${owner.id}`)).status).toBe(403)
    expect((await root.put(`/projects/${project.id}/members/${owner.id}`, { access_level: 40 })).status).toBe(403)
  })

  it('does not protect a co-owner who does not hold the namespace', async () => {
    const coOwner = await createUser(server, 'coowner')
    await owner.api.post(`/projects/${project.id}/members`, { user_id: coOwner.id, access_level: 50 })
    expect((await owner.api.put(`/projects/${project.id}/members/${coOwner.id}`, { access_level: 30 })).status).toBe(200)
    expect((await coOwner.api.del(`/projects/${project.id}/members/${coOwner.id}`)).status).toBe(204)
  })
})

describe('DELETE /projects/:id/members/:user_id', () => {
  it('answers 204 with no body, after which the member is gone and the project hidden from them', async () => {
    const leaver = await createUser(server, 'leaver')
    await owner.api.post(`/projects/${project.id}/members`, { user_id: leaver.id, access_level: 30 })
    const res = await maintainer.api.del(`/projects/${project.id}/members/${leaver.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(res.headers.get('content-type')).toBeNull()
    expect((await owner.api.get(`/projects/${project.id}/members/${leaver.id}`)).status).toBe(404)
    expect((await leaver.api.get(`/projects/${project.id}`)).status).toBe(404)
  })

  it('lets a member leave on their own', async () => {
    const quitter = await createUser(server, 'quitter')
    await owner.api.post(`/projects/${project.id}/members`, { user_id: quitter.id, access_level: 10 })
    expect((await quitter.api.del(`/projects/${project.id}/members/${quitter.id}`)).status).toBe(204)
    expect((await owner.api.get(`/projects/${project.id}/members/${quitter.id}`)).status).toBe(404)
  })

  it('answers 403 to a maintainer removing an owner, and to a developer removing anyone else', async () => {
    expect((await maintainer.api.del(`/projects/${project.id}/members/${owner.id}`)).status).toBe(403)
    expect((await developer.api.del(`/projects/${project.id}/members/${maintainer.id}`)).status).toBe(403)
    expect(levels((await owner.api.get(`/projects/${project.id}/members`, { query: { user_ids: [owner.id, maintainer.id] } })).body))
      .toEqual([['owner', 50], ['maintainer', 40]])
  })
})
