// Member lists are not public reading: GitLab's Members API authenticates every request, on public projects and groups too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, createUser, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let paths: string[]

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  const project = await createProject(alice.api, { name: 'open', visibility: 'public' })
  const group = await createGroup(alice.api, { name: 'Open team', path: 'open-team', visibility: 'public' })
  paths = [`/projects/${project.id}`, `/groups/${group.id}`].flatMap((at) =>
    [`${at}/members`, `${at}/members/all`, `${at}/members/${alice.id}`, `${at}/members/all/${alice.id}`])
})
afterAll(() => server.close())

describe('member reads of a public project or group', () => {
  it('answer 401 to an anonymous caller', async () => {
    for (const path of paths) {
      const res = await api(server).get(path)
      expect([path, res.status, res.body]).toEqual([path, 401, { message: '401 Unauthorized' }])
    }
  })

  it('answer a signed-in non-member', async () => {
    const bob = await createUser(server, 'bob')
    for (const path of paths) expect([path, (await bob.api.get(path)).status]).toEqual([path, 200])
  })
})
