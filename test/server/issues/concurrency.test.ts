// Eight clients creating 200 issues each, 25 at a time each, in one project: iids 1 to 1600, each exactly once, no 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let users: TestUser[]
let project: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  const owner = await createUser(server, 'owner')
  project = await createProject(owner.api, { name: 'busy', visibility: 'public' })
  users = [owner, ...(await Promise.all(Array.from({ length: 7 }, (_, i) => createUser(server, `client${i}`))))]
})
afterAll(() => server.close())

const IN_FLIGHT = 25

describe('concurrent issue creation', () => {
  it('hands out iids 1..1600 exactly once to 8 clients creating 200 issues each', async () => {
    const replies = await Promise.all(users.map(async (u, c) => {
      const statuses: number[] = []
      const created: number[] = []
      // IN_FLIGHT requests at a time per client: all 200 at once opened 1600 connections together, past the listen
      // backlog (511), and on a loaded machine, where this process also answers them, some were reset (ECONNRESET).
      let next = 0
      await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
        for (let i = next++; i < 200; i = next++) {
          const res = await u.api.post(`/projects/${project.id}/issues`, { title: `client ${c} issue ${i}` })
          statuses.push(res.status)
          if (res.status === 201) created.push(res.body.iid)
        }
      }))
      return { statuses, created }
    }))
    const statuses = replies.flatMap((r) => r.statuses)
    expect(statuses.filter((s) => s !== 201)).toEqual([])
    const iids = replies.flatMap((r) => r.created).sort((a, b) => a - b)
    expect(iids).toEqual(Array.from({ length: 1600 }, (_, i) => i + 1))
    const listed = await users[0].api.get(`/projects/${project.id}/issues`, { query: { per_page: 1 } })
    expect(listed.headers.get('x-total')).toBe('1600')
    expect((await users[0].api.get(`/projects/${project.id}`)).body.open_issues_count).toBe(1600)
  }, 120_000)
})
