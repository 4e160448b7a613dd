// POST /projects/:id/statuses/:sha and GET …/commits/:sha/statuses: add, move on in place, keep history, filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CommitStatus } from '../../../src/contract/entities/repository.js'
import { api, createProject, createUser, expectStatus, movableClock, type TestUser } from '../../helpers/api.js'
import { commit, create, repo } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const T0 = '2024-01-02T03:04:05.000Z'
const clock = movableClock(T0)
let server: TestServer
let alice: TestUser
let rita: TestUser
let aliceBasic: Record<string, unknown>

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  rita = await createUser(server, 'rita', { name: 'Rita Reporter' })
  aliceBasic = { id: alice.id, username: 'alice', name: 'Alice Liddell', state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/${alice.id}/identicon.svg`, web_url: `${server.url}/alice` }
})
afterAll(() => server.close())

let projects = 0
/** A project whose master holds one commit, also on branch `feature`; a second commit only on `feature`. */
async function fixture() {
  clock.set(T0)
  const p = await createProject(alice.api, { name: `statuses-${++projects}`, visibility: 'public' })
  await alice.api.post(`/projects/${p.id}/members`, { user_id: rita.id, access_level: 20 })
  const base = (await commit(alice.api, p.id, { commit_message: 'Base', actions: [create('a.txt', 'a\n')] })).id as string
  const onFeature = (await commit(alice.api, p.id, { branch: 'feature', start_branch: 'master', commit_message: 'Feature', actions: [create('f.txt', 'f\n')] })).id as string
  return { id: p.id as number, base, onFeature }
}

const post = (id: number, sha: string, body: Record<string, unknown>, as = alice.api) => as.post(`/projects/${id}/statuses/${sha}`, body)
const list = (id: number, sha: string, query: Record<string, string | boolean> = {}) => api(server).get(`${repo(id)}/commits/${sha}/statuses`, { query })
const summary = (body: { name: string; ref: string | null; status: string }[]) => body.map((s) => `${s.name}@${s.ref}:${s.status}`)

describe('POST /projects/:id/statuses/:sha', () => {
  it('adds a status and answers 201 with it', async () => {
    const { id, base } = await fixture()
    const res = await post(id, base, { state: 'success', name: 'unit', target_url: 'https://ci.example.com/1', description: 'All green', coverage: 87.5 })
    expect(res.status).toBe(201)
    expect(CommitStatus.strict().parse(res.body)).toEqual({
      id: res.body.id, sha: base, ref: 'master', status: 'success', name: 'unit', target_url: 'https://ci.example.com/1', description: 'All green',
      coverage: 87.5, pipeline_id: expect.any(Number), created_at: T0, started_at: null, finished_at: T0, allow_failure: false, author: aliceBasic,
    })
  })

  it.each(['pending', 'running', 'success', 'failed', 'canceled'])('accepts the state %s', async (state) => {
    const { id, base } = await fixture()
    const res = expectStatus(await post(id, base, { state }), 201)
    expect(res.body.status).toBe(state)
  })

  it('names the status default, or takes context as the name', async () => {
    const { id, base } = await fixture()
    expect((await post(id, base, { state: 'pending' })).body.name).toBe('default')
    expect((await post(id, base, { state: 'pending', context: 'ci/lint' })).body.name).toBe('ci/lint')
    expect((await post(id, base, { state: 'pending', name: 'by-name', context: 'ignored' })).body.name).toBe('by-name')
  })

  it('files the status under the given ref, else a branch holding the commit, the default branch first', async () => {
    const { id, base, onFeature } = await fixture()
    expect((await post(id, base, { state: 'pending' })).body.ref).toBe('master')
    expect((await post(id, onFeature, { state: 'pending' })).body.ref).toBe('feature')
    expect((await post(id, base, { state: 'pending', ref: 'feature' })).body.ref).toBe('feature')
  })

  it('answers 404 for a commit on no branch unless a ref is given', async () => {
    const { id } = await fixture()
    const loose = (await commit(alice.api, id, { branch: 'tmp', start_branch: 'master', commit_message: 'Loose', actions: [create('l.txt', 'l\n')] })).id as string
    expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'keep', ref: 'tmp' }), 201)
    expectStatus(await alice.api.del(`${repo(id)}/branches/tmp`), 204)
    const res = await post(id, loose, { state: 'pending' })
    expect([res.status, res.body]).toEqual([404, { message: '404 References for commit Not Found' }])
    expect((await post(id, loose, { state: 'pending', ref: 'keep' })).body.ref).toBe('keep')
    expect(summary((await list(id, loose, { ref: 'keep' })).body)).toEqual(['default@keep:pending'])
  })

  it('moves a status with the same name and ref on in place: pending, running, success', async () => {
    const { id, base } = await fixture()
    const pending = expectStatus(await post(id, base, { state: 'pending', name: 'build' }), 201).body
    clock.set('2024-01-02T03:05:00.000Z')
    const running = expectStatus(await post(id, base, { state: 'running', name: 'build', target_url: 'https://ci.example.com/7' }), 201).body
    clock.set('2024-01-02T03:06:00.000Z')
    const done = expectStatus(await post(id, base, { state: 'success', name: 'build', coverage: '91.25', description: 'done' }), 201).body
    expect([running.id, done.id]).toEqual([pending.id, pending.id])
    expect(done).toEqual({
      id: pending.id, sha: base, ref: 'master', status: 'success', name: 'build', target_url: 'https://ci.example.com/7', description: 'done',
      coverage: 91.25, pipeline_id: expect.any(Number), created_at: T0, started_at: '2024-01-02T03:05:00.000Z', finished_at: '2024-01-02T03:06:00.000Z',
      allow_failure: false, author: aliceBasic,
    })
    expect(summary((await list(id, base, { all: true })).body)).toEqual(['build@master:success'])
  })

  it('starts a new status after a finished one, keeping the old one for all=true', async () => {
    const { id, base } = await fixture()
    const first = expectStatus(await post(id, base, { state: 'failed', name: 'build' }), 201).body
    clock.set('2024-01-02T04:00:00.000Z')
    const retry = expectStatus(await post(id, base, { state: 'running', name: 'build' }), 201).body
    expect(retry.id).not.toBe(first.id)
    expect([retry.created_at, retry.started_at, retry.finished_at]).toEqual(['2024-01-02T04:00:00.000Z', '2024-01-02T04:00:00.000Z', null])
    expect((await list(id, base)).body.map((s: { id: number }) => s.id)).toEqual([retry.id])
    const all = await list(id, base, { all: true })
    expect(all.body.map((s: { id: number; status: string }) => [s.id, s.status])).toEqual([[first.id, 'failed'], [retry.id, 'running']])
  })

  it('refuses a transition to the state the status is already in', async () => {
    const { id, base } = await fixture()
    await post(id, base, { state: 'running', name: 'build' })
    const res = await post(id, base, { state: 'running', name: 'build' })
    expect([res.status, res.body]).toEqual([400, { message: 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")' }])
    await post(id, base, { state: 'pending', name: 'queued' })
    const again = await post(id, base, { state: 'pending', name: 'queued' })
    expect([again.status, again.body]).toEqual([400, { message: 'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")' }])
  })

  it('refuses an unknown state, a missing state and a bad coverage', async () => {
    const { id, base } = await fixture()
    const bad = await post(id, base, { state: 'done' })
    expect([bad.status, bad.body]).toEqual([400, { message: { state: ['does not have a valid value'] } }])
    const missing = await post(id, base, { name: 'x' })
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "state" not given' }])
    const coverage = await post(id, base, { state: 'success', coverage: 'lots' })
    expect([coverage.status, coverage.body]).toEqual([400, { message: { coverage: ['is invalid'] } }])
  })

  it('answers 404 for an unknown commit, 403 to a Reporter and 401 without credentials', async () => {
    const { id, base } = await fixture()
    const unknown = await post(id, '0123456789abcdef0123456789abcdef01234567', { state: 'pending' })
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Commit Not Found' }])
    const reporter = await post(id, base, { state: 'pending' }, rita.api)
    expect([reporter.status, reporter.body]).toEqual([403, { message: '403 Forbidden' }])
    const anonymous = await post(id, base, { state: 'pending' }, api(server))
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    expect((await list(id, base, { all: true })).body).toEqual([])
  })
})

describe('GET /projects/:id/repository/commits/:sha/statuses', () => {
  it('lists the statuses of the default branch unless ref says otherwise, filtered by name', async () => {
    const { id, base } = await fixture()
    await post(id, base, { state: 'success', name: 'build' })
    await post(id, base, { state: 'failed', name: 'test' })
    await post(id, base, { state: 'running', name: 'build', ref: 'feature' })
    const res = await list(id, base)
    expect(res.status).toBe(200)
    for (const s of res.body) CommitStatus.strict().parse(s)
    expect(summary(res.body)).toEqual(['build@master:success', 'test@master:failed'])
    expect(summary((await list(id, base, { ref: 'feature' })).body)).toEqual(['build@feature:running'])
    expect(summary((await list(id, base, { name: 'build' })).body)).toEqual(['build@master:success'])
    expect(summary((await list(id, base, { name: 'build', ref: 'feature' })).body)).toEqual(['build@feature:running'])
    expect((await list(id, base, { name: 'nothing' })).body).toEqual([])
  })

  it('takes a branch name for the commit and paginates', async () => {
    const { id, base } = await fixture()
    for (const name of ['a', 'b', 'c']) await post(id, base, { state: 'pending', name })
    const page = await list(id, 'master', { per_page: '2', page: '2' })
    expect(summary(page.body)).toEqual(['c@master:pending'])
    expect([page.headers.get('x-total'), page.headers.get('x-total-pages')]).toEqual(['3', '2'])
  })

  it('answers 404 for an unknown commit', async () => {
    const { id } = await fixture()
    const res = await list(id, 'no-such-ref')
    expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }])
  })
})
