// GET /projects/:id/repository/commits/:sha: by full or short id, branch or tag; stats, status and last_pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Commit } from '../../../src/contract/entities/repository.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const DATE = '2024-01-02T03:04:05.000+00:00'
const FIRST = 'a33473ac3c3af7deba83be55ef5d8f2db20cbb3f'
const SECOND = '86e7bfba4987040c8c7201805903ddab8eeb4aca'

let server: TestServer
let alice: TestUser
let id: number

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  id = (await createProject(alice.api, { name: 'single' })).id
  expect((await commit(alice.api, id, { commit_message: 'Initial commit', actions: [create('README.md', 'hello\n')] })).id).toBe(FIRST)
  const second = await commit(alice.api, id, {
    branch: 'feature/one', start_branch: 'master', commit_message: 'Second commit\n\nWith a body.\n\nSigned-off-by: Alice Liddell <alice@example.com>',
    actions: [update('README.md', 'hello\nworld\n'), create('b.txt', 'b\n')],
  })
  expect(second.id).toBe(SECOND)
  expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'v1.0', ref: FIRST }), 201)
  expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'v2.0', ref: SECOND, message: 'Release 2.0' }), 201)
})
afterAll(() => server.close())

const get = (sha: string, query: Record<string, string | boolean> = {}) => alice.api.get(`${repo(id)}/commits/${sha}`, { query })

describe('GET /projects/:id/repository/commits/:sha', () => {
  it('answers the commit with stats, status and last_pipeline', async () => {
    const res = await get(SECOND)
    expect(res.status).toBe(200)
    expect(Commit.strict().parse(res.body)).toEqual({
      id: SECOND,
      short_id: SECOND.slice(0, 8),
      created_at: DATE,
      parent_ids: [FIRST],
      title: 'Second commit',
      message: 'Second commit\n\nWith a body.\n\nSigned-off-by: Alice Liddell <alice@example.com>\n',
      author_name: 'Alice Liddell',
      author_email: 'alice@example.com',
      authored_date: DATE,
      committer_name: 'Alice Liddell',
      committer_email: 'alice@example.com',
      committed_date: DATE,
      trailers: { 'Signed-off-by': 'Alice Liddell <alice@example.com>' },
      extended_trailers: { 'Signed-off-by': ['Alice Liddell <alice@example.com>'] },
      web_url: `${server.url}/alice/single/-/commit/${SECOND}`,
      stats: { additions: 2, deletions: 0, total: 2 },
      status: null,
      last_pipeline: null,
    })
  })

  it('finds the same commit by short id, branch and tag, annotated or not', async () => {
    const full = (await get(SECOND)).body
    expect((await get(SECOND.slice(0, 8))).body).toEqual(full)
    expect((await get(SECOND.slice(0, 5))).body).toEqual(full)
    expect((await get('feature%2Fone')).body).toEqual(full)
    expect((await get('v2.0')).body).toEqual(full)
    expect((await get('v1.0')).body.id).toBe(FIRST)
    expect((await get('master')).body.id).toBe(FIRST)
  })

  it('leaves stats out with stats=false', async () => {
    const res = await get(SECOND, { stats: false })
    expect(res.body.stats).toBeUndefined()
    expect([res.body.status, res.body.last_pipeline]).toEqual([null, null])
    expect((await get(SECOND, { stats: true })).body.stats).toEqual({ additions: 2, deletions: 0, total: 2 })
  })

  it('reports the combined status of the statuses posted on the commit', async () => {
    const post = async (state: string, name: string) => expectStatus(await alice.api.post(`/projects/${id}/statuses/${FIRST}`, { state, name }), 201)
    const status = async () => (await get(FIRST)).body.status
    expect(await status()).toBeNull()
    await post('pending', 'build')
    expect(await status()).toBe('pending')
    await post('running', 'build')
    await post('pending', 'test')
    expect(await status()).toBe('running')
    await post('success', 'build')
    await post('running', 'test')
    await post('success', 'test')
    expect(await status()).toBe('success')
    await post('canceled', 'deploy')
    expect(await status()).toBe('canceled')
    await post('failed', 'lint')
    expect(await status()).toBe('failed')
    expect((await get(SECOND)).body.status).toBeNull()
  })

  it('answers 404 for an unknown commit or ref', async () => {
    for (const sha of ['0123456789abcdef0123456789abcdef01234567', 'deadbeef', 'no-such-branch']) {
      const res = await get(sha)
      expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }])
    }
  })

  it('answers 404 for a private project to anonymous callers', async () => {
    const res = await api(server).get(`${repo(id)}/commits/${FIRST}`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})
