// GET /projects/:id/repository/commits/:sha/merge_requests: no merge request holds a commit yet; the commit must exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, type TestUser } from '../../helpers/api.js'
import { commit, create, repo } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let id: number
let sha: string

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  id = (await createProject(alice.api, { name: 'mrs' })).id
  sha = (await commit(alice.api, id, { commit_message: 'One', actions: [create('x.txt', 'x\n')] })).id
})
afterAll(() => server.close())

describe('GET /projects/:id/repository/commits/:sha/merge_requests', () => {
  it('answers an empty, paginated list for a commit', async () => {
    for (const ref of [sha, 'master']) {
      const res = await alice.api.get(`${repo(id)}/commits/${ref}/merge_requests`)
      expect([res.status, res.body, res.headers.get('x-total'), res.headers.get('x-total-pages')]).toEqual([200, [], '0', '1'])
    }
  })

  it('answers 404 for an unknown commit', async () => {
    const res = await alice.api.get(`${repo(id)}/commits/0123456789abcdef0123456789abcdef01234567/merge_requests`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }])
  })

  it('answers 404 for a private project to anonymous callers', async () => {
    const res = await api(server).get(`${repo(id)}/commits/${sha}/merge_requests`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})
