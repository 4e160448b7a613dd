// The store's prepared-statement cache stays bounded: id lists are bound, not pasted into SQL, and an LRU caps the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STATEMENT_CACHE_LIMIT, statementCacheSize, stmt } from '../../../src/server/store/db.js'
import { listMilestones } from '../../../src/server/store/milestones.js'
import { api, createGroup, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { createIssue } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let alice: TestUser
let project: any
let group: any

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  group = await createGroup(alice.api, { name: 'Team', path: 'team', visibility: 'public' })
  for (let i = 0; i < 3; i++) await createIssue(alice.api, project.id, { title: `Issue ${i}` })
  expectStatus(await root.post(`/projects/${project.id}/milestones`, { title: 'v1' }), 201)
})
afterAll(() => server.close())

/**
 * How many statements a second round of requests adds, after a first round with other ids. Lists are padded to a
 * power of two, so the first round may add a statement per size class; a second round of new lists adds none.
 */
async function growth(send: (n: number, round: number) => Promise<{ status: number }>, status = 200): Promise<number> {
  for (let n = 1; n <= 30; n++) expect((await send(n, 0)).status).toBe(status)
  // Two measured rounds, the smaller growth counts: the server's background work (sweeps on timers) may prepare a
  // statement of its own once during one of them, while statements made per distinct list would grow in both.
  const grown: number[] = []
  for (const round of [1, 2]) {
    const before = statementCacheSize(server.app.db)
    for (let n = 1; n <= 30; n++) expect((await send(n, round)).status).toBe(status)
    const after = statementCacheSize(server.app.db)
    // At the cap the LRU hides growth; the loops are sized to stay below it.
    expect(after).toBeLessThan(STATEMENT_CACHE_LIMIT)
    grown.push(after - before)
  }
  return Math.min(...grown)
}

/** `n` ids, different in each round. */
const ids = (n: number, round: number) => Array.from({ length: n }, (_, i) => 1 + i + round * 100)

describe('requests with distinct ids add no statements', () => {
  it('GET /projects/:id/members/all/:user_id, for many user ids', async () => {
    expect(await growth((n, round) => alice.api.get(`/projects/${project.id}/members/all/${1000 + n + round * 100}`), 404)).toBe(0)
  })

  it('GET /groups/:id/members/all/:user_id', async () => {
    expect(await growth((n, round) => alice.api.get(`/groups/${group.id}/members/all/${1000 + n + round * 100}`), 404)).toBe(0)
  })

  it('issue lists with distinct iids[] and page sizes', async () => {
    // Pages vary within each round, so the first round already meets both scan directions (deep pages read from the end).
    expect(await growth((n, round) => alice.api.get(`/projects/${project.id}/issues`, { query: { iids: ids(n, round) } }))).toBe(0)
    expect(await growth((n, round) => alice.api.get(`/projects/${project.id}/issues`, { query: { per_page: (n % 3) + 1, page: 1 + ((n + round) % 5) } }))).toBe(0)
  })

  it('milestone lists with distinct iids[]', async () => {
    expect(await growth((n, round) => alice.api.get(`/projects/${project.id}/milestones`, { query: { iids: ids(n, round) } }))).toBe(0)
  })

  it('group lists with distinct skip_groups[] and project users with distinct skip_users[]', async () => {
    expect(await growth((n, round) => api(server).get('/groups', { query: { skip_groups: ids(n, round) } }))).toBe(0)
    expect(await growth((n, round) => api(server).get(`/projects/${project.id}/users`, { query: { skip_users: ids(n, round) } }))).toBe(0)
  })

  it('lists of every length up to 2000 take a dozen statements, not one per length', () => {
    // Through the store: URLs with a thousand ids overflow the client's header limit in the Link header.
    const before = statementCacheSize(server.app.db)
    for (let n = 1; n <= 2000; n += 7) {
      expect(listMilestones(server.app.db, project.id, { iids: ids(n, 0), limit: 20, offset: 0 }).total).toBe(1)
    }
    // Sizes 1, 2, 4 … 1024, and one JSON-bound text past that; a count and a page for each.
    expect(statementCacheSize(server.app.db) - before).toBeLessThanOrEqual(2 * 12)
  })
})

describe('the cache as a backstop', () => {
  it(`keeps at most ${STATEMENT_CACHE_LIMIT} statements however many distinct texts are prepared`, () => {
    const db = server.app.db
    for (let i = 0; i < STATEMENT_CACHE_LIMIT + 200; i++) expect(stmt(db, `SELECT ${i} AS n`).get()).toEqual({ n: i })
    expect(statementCacheSize(db)).toBe(STATEMENT_CACHE_LIMIT)
  })

  it('evicts the least recently used statement, keeping one in use', () => {
    const db = server.app.db
    const hot = stmt(db, 'SELECT 42 AS hot')
    for (let i = 0; i < STATEMENT_CACHE_LIMIT * 2; i++) {
      stmt(db, `SELECT ${i} AS cold`)
      expect(stmt(db, 'SELECT 42 AS hot')).toBe(hot)
    }
    expect(statementCacheSize(db)).toBe(STATEMENT_CACHE_LIMIT)
  })

  it('still answers requests after the cache was churned', async () => {
    const res = expectStatus(await alice.api.get(`/projects/${project.id}/issues`), 200)
    expect(res.body.map((i: { title: string }) => i.title)).toEqual(['Issue 2', 'Issue 1', 'Issue 0'])
  })
})
