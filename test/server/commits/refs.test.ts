// GET /projects/:id/repository/commits/:sha/refs: the branches and tags that contain a commit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CommitRef } from '../../../src/contract/entities/repository.js'
import { gitAvailable, setGitAvailable } from '../../../src/server/git/exec.js'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create, ENGINES, repo } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let id: number
/** C1 <- C2 (master, tag v2 annotated); C1 <- C3 (feature); tag v1 on C1. */
let C1: string
let C2: string
let C3: string

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  id = (await createProject(alice.api, { name: 'refs' })).id
  C1 = (await commit(alice.api, id, { commit_message: 'One', actions: [create('a.txt', 'a\n')] })).id
  C3 = (await commit(alice.api, id, { branch: 'feature', start_branch: 'master', commit_message: 'Three', actions: [create('c.txt', 'c\n')] })).id
  C2 = (await commit(alice.api, id, { commit_message: 'Two', actions: [create('b.txt', 'b\n')] })).id
  expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'v1', ref: C1 }), 201)
  expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'v2', ref: 'master', message: 'Two' }), 201)
})
afterAll(() => server.close())

const refs = (sha: string, query: Record<string, string | number> = {}) => alice.api.get(`${repo(id)}/commits/${sha}/refs`, { query })

describe.each(ENGINES)('GET /projects/:id/repository/commits/:sha/refs with $engine', ({ available }) => {
  beforeAll(async () => {
    setGitAvailable(available)
    expect(await gitAvailable()).toBe(available ?? true)
  })
  afterAll(() => setGitAvailable(null))

  it('lists every branch, then every tag, that contains the commit', async () => {
    const res = await refs(C1)
    expect(res.status).toBe(200)
    for (const r of res.body) CommitRef.strict().parse(r)
    expect(res.body).toEqual([{ type: 'branch', name: 'feature' }, { type: 'branch', name: 'master' }, { type: 'tag', name: 'v1' }, { type: 'tag', name: 'v2' }])
    expect((await refs(C2)).body).toEqual([{ type: 'branch', name: 'master' }, { type: 'tag', name: 'v2' }])
    expect((await refs(C3)).body).toEqual([{ type: 'branch', name: 'feature' }])
  })

  it('filters with type=branch, type=tag and type=all', async () => {
    expect((await refs(C1, { type: 'branch' })).body).toEqual([{ type: 'branch', name: 'feature' }, { type: 'branch', name: 'master' }])
    expect((await refs(C1, { type: 'tag' })).body).toEqual([{ type: 'tag', name: 'v1' }, { type: 'tag', name: 'v2' }])
    expect((await refs(C1, { type: 'all' })).body).toHaveLength(4)
    const bad = await refs(C1, { type: 'remote' })
    expect([bad.status, bad.body]).toEqual([400, { message: { type: ['does not have a valid value'] } }])
  })

  it('takes a ref name for the commit, and paginates', async () => {
    expect((await refs('v1', { type: 'tag' })).body).toEqual([{ type: 'tag', name: 'v1' }, { type: 'tag', name: 'v2' }])
    const page = await refs(C1, { per_page: 3, page: 2 })
    expect(page.body).toEqual([{ type: 'tag', name: 'v2' }])
    expect([page.headers.get('x-total'), page.headers.get('x-total-pages'), page.headers.get('x-prev-page')]).toEqual(['4', '2', '1'])
  })

  it('answers 404 for an unknown commit', async () => {
    const res = await refs('0123456789abcdef0123456789abcdef01234567')
    expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }])
  })
})
