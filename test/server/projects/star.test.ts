// POST /projects/:id/star and /unstar (304 when repeated), GET /projects/:id/starrers, GET /users/:user_id/starred_projects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project } from '../../../src/contract/entities/projects.js'
import { UserBasic } from '../../../src/contract/entities/users.js'
import { api, createProject, createUser, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let project: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  project = await createProject(alice.api, { name: 'Shiny', visibility: 'public' })
})
afterAll(() => server.close())

describe('starring a project', () => {
  it('answers 201 with the project and star_count 1', async () => {
    const res = await bob.api.post(`/projects/${project.id}/star`)
    expect(res.status).toBe(201)
    expect(Project.strict().parse(res.body).star_count).toBe(1)
    expect((await alice.api.get(`/projects/${project.id}`)).body.star_count).toBe(1)
  })

  it('answers 304 with an empty body when already starred, and counts the star once', async () => {
    const res = await bob.api.post(`/projects/${project.id}/star`)
    expect(res.status).toBe(304)
    expect(res.text).toBe('')
    expect((await alice.api.get(`/projects/${project.id}`)).body.star_count).toBe(1)
  })

  it('lists the starrer with the time of starring', async () => {
    const res = await alice.api.get(`/projects/${project.id}/starrers`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual([{ starred_since: NOW, user: UserBasic.strict().parse({
      id: bob.id, username: 'bob', name: 'User bob', state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/${bob.id}/identicon.svg`, web_url: `${server.url}/bob`,
    }) }])
    expect((await alice.api.get(`/projects/${project.id}/starrers`, { query: { search: 'ali' } })).body).toEqual([])
  })

  it('lists the project among the user starred projects', async () => {
    const res = await api(server).get('/users/bob/starred_projects')
    expect(res.body.map((p: any) => p.id)).toEqual([project.id])
    expect((await api(server).get('/users/alice/starred_projects')).body).toEqual([])
  })

  it('counts stars from several users', async () => {
    expect((await alice.api.post(`/projects/${project.id}/star`)).body.star_count).toBe(2)
    expect((await alice.api.post(`/projects/${project.id}/unstar`)).body.star_count).toBe(1)
  })
})

describe('unstarring a project', () => {
  it('answers 201 with star_count 0, then 304 when repeated', async () => {
    const res = await bob.api.post(`/projects/${project.id}/unstar`)
    expect(res.status).toBe(201)
    expect(res.body.star_count).toBe(0)
    const again = await bob.api.post(`/projects/${project.id}/unstar`)
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect((await alice.api.get(`/projects/${project.id}/starrers`)).body).toEqual([])
    expect((await alice.api.get(`/projects/${project.id}`)).body.star_count).toBe(0)
  })
})

describe('star refusals', () => {
  it('answers 401 without credentials', async () => {
    const res = await api(server).post(`/projects/${project.id}/star`)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: '401 Unauthorized' })
  })

  it('answers 404 for a private project the caller cannot see', async () => {
    const secret = await createProject(alice.api, { name: 'Dim' })
    const res = await bob.api.post(`/projects/${secret.id}/star`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Project Not Found' })
  })
})
