// import_url can hold credentials: GitLab shows it only to those who may administer the project (Maintainer and up, admins).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const SECRET_URL = 'https://importer:s3cret@example.com/upstream/demo.git'

let server: TestServer
let alice: TestUser
let users: Record<'maintainer' | 'developer' | 'reporter' | 'outsider', TestUser>
let id: number

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  users = {
    maintainer: await createUser(server, 'mia'),
    developer: await createUser(server, 'dev'),
    reporter: await createUser(server, 'rita'),
    outsider: await createUser(server, 'otto'),
  }
  id = (await createProject(alice.api, { name: 'demo', visibility: 'public', import_url: SECRET_URL })).id
  for (const [role, level] of [['maintainer', 40], ['developer', 30], ['reporter', 20]] as const) {
    expectStatus(await alice.api.post(`/projects/${id}/members`, { user_id: users[role].id, access_level: level }), 201)
  }
})
afterAll(() => server.close())

const seen = (body: Record<string, unknown>) => ('import_url' in body ? body.import_url : 'absent')

describe('import_url in the full project form', () => {
  it('is shown to the owner, a maintainer and an administrator', async () => {
    expect(seen((await alice.api.get(`/projects/${id}`)).body)).toBe(SECRET_URL)
    expect(seen((await users.maintainer.api.get(`/projects/${id}`)).body)).toBe(SECRET_URL)
    expect(seen((await api(server, server.rootToken).get(`/projects/${id}`)).body)).toBe(SECRET_URL)
  })

  it('is left out for developers, reporters and signed-in non-members', async () => {
    for (const role of ['developer', 'reporter', 'outsider'] as const) {
      const res = expectStatus(await users[role].api.get(`/projects/${id}`), 200)
      expect([role, seen(res.body), res.body.import_status]).toEqual([role, 'absent', 'none'])
    }
  })

  it('is left out of project lists for those who may not administer the project', async () => {
    const mine = (body: { id: number }[]) => body.find((p) => p.id === id) as unknown as Record<string, unknown>
    expect(seen(mine((await users.developer.api.get('/projects')).body))).toBe('absent')
    expect(seen(mine((await users.maintainer.api.get('/projects')).body))).toBe(SECRET_URL)
  })

  it('stays hidden from a developer after the project changes', async () => {
    expectStatus(await alice.api.put(`/projects/${id}`, { description: 'changed' }), 200)
    expect(seen((await users.developer.api.get(`/projects/${id}`)).body)).toBe('absent')
    expect(seen((await alice.api.get(`/projects/${id}`)).body)).toBe(SECRET_URL)
  })
})
