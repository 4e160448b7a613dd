// GET /projects/:id/repository/commits: ref_name, since, until, path, all, with_stats and pagination, on both history engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Commit } from '../../../src/contract/entities/repository.js'
import { gitAvailable, setGitAvailable } from '../../../src/server/git/exec.js'
import { api, createProject, createUser, expectStatus, movableClock, type TestUser } from '../../helpers/api.js'
import { commit, create, ENGINES, gitIn, remove, repo, update } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const clock = movableClock('2024-01-01T10:00:00Z')
let server: TestServer
let alice: TestUser
let id: number

/** master: C1 <- C2 <- C3 <- C5; feature: C3 <- C4; tag `detached` only: C1 <- C6. One day apart, C1 on 2024-01-01. */
const C1 = '3f5ec79bc1e418f813b06f4b3deda4680d832e35'
const C2 = '6492a78e28bf88852e315b55d3a3d85659e6d57a'
const C3 = '0af366bbf5d0f0b22a35bb0a3c2c6d4148cb7625'
const C4 = '56afebcd0dfe516c477d777c070e2500386a500e'
const C5 = 'b8d47418bbd532b82c1dc48b42c837b7e2f349ab'
const C6 = '6951815e3c31996f1c7d18a512f35e0c15d015d6'

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  id = (await createProject(alice.api, { name: 'history', visibility: 'public' })).id
  const at = async (day: number, body: Parameters<typeof commit>[2]) => {
    clock.set(`2024-01-0${day}T10:00:00Z`)
    return (await commit(alice.api, id, body)).id
  }
  expect(await at(1, { commit_message: 'Initial commit', actions: [create('README.md', 'hello\n'), create('src/app.txt', 'one\ntwo\nthree\n')] })).toBe(C1)
  expect(await at(2, { commit_message: 'Add the guide', actions: [create('docs/guide.md', '# Guide\n')] })).toBe(C2)
  expect(await at(3, { commit_message: 'Edit app\n\nLonger explanation.', actions: [update('src/app.txt', 'one\n2\nthree\n')] })).toBe(C3)
  expect(await at(4, { branch: 'feature', start_branch: 'master', commit_message: 'Feature work', actions: [create('feature.txt', 'f\n')] })).toBe(C4)
  expect(await at(5, { commit_message: 'Remove the guide', actions: [remove('docs/guide.md')] })).toBe(C5)
  expect(await at(6, { branch: 'tmp', start_branch: C1, commit_message: 'Only under a tag', actions: [create('tagged.txt', 't\n')] })).toBe(C6)
  expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'detached', ref: 'tmp' }), 201)
  expectStatus(await alice.api.del(`${repo(id)}/branches/tmp`), 204)
  clock.set('2024-02-01T00:00:00Z')
})
afterAll(() => server.close())

const ids = (body: { id: string }[]) => body.map((c) => c.id)

describe.each(ENGINES)('GET /projects/:id/repository/commits with $engine', ({ available }) => {
  beforeAll(async () => {
    setGitAvailable(available)
    expect(await gitAvailable()).toBe(available ?? true)
  })
  afterAll(() => setGitAvailable(null))

  const list = (query: Record<string, string | number | boolean> = {}) => api(server).get(`${repo(id)}/commits`, { query })

  it('lists the default branch, newest first, as Commit entities', async () => {
    const res = await list()
    expect(res.status).toBe(200)
    expect(ids(res.body)).toEqual([C5, C3, C2, C1])
    for (const c of res.body) Commit.strict().parse(c)
    expect(res.body[1]).toEqual({
      id: C3,
      short_id: C3.slice(0, 8),
      created_at: '2024-01-03T10:00:00.000+00:00',
      parent_ids: [C2],
      title: 'Edit app',
      message: 'Edit app\n\nLonger explanation.\n',
      author_name: 'Alice Liddell',
      author_email: 'alice@example.com',
      authored_date: '2024-01-03T10:00:00.000+00:00',
      committer_name: 'Alice Liddell',
      committer_email: 'alice@example.com',
      committed_date: '2024-01-03T10:00:00.000+00:00',
      trailers: {},
      extended_trailers: {},
      web_url: `${server.url}/alice/history/-/commit/${C3}`,
    })
  })

  it('lists another branch, a tag or a commit with ref_name', async () => {
    expect(ids((await list({ ref_name: 'feature' })).body)).toEqual([C4, C3, C2, C1])
    expect(ids((await list({ ref_name: 'detached' })).body)).toEqual([C6, C1])
    expect(ids((await list({ ref_name: C2 })).body)).toEqual([C2, C1])
    expect(ids((await list({ ref_name: C3.slice(0, 10) })).body)).toEqual([C3, C2, C1])
  })

  it('answers 404 for a ref that does not exist', async () => {
    const res = await list({ ref_name: 'no-such-branch' })
    expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }])
  })

  it('answers 404 for a full id of no object, of a tree or of a blob, also with filters that match nothing', async () => {
    const tree = await api(server).get(`${repo(id)}/tree`)
    const byName = Object.fromEntries(tree.body.map((e: { name: string; id: string }) => [e.name, e.id]))
    for (const ref of ['0123456789abcdef0123456789abcdef01234567', byName.src, byName['README.md']]) {
      for (const query of [{ ref_name: ref }, { ref_name: ref, path: 'never-existed.txt' }] as Record<string, string>[]) {
        const res = await list(query)
        expect([ref, res.status, res.body]).toEqual([ref, 404, { message: '404 Commit Not Found' }])
      }
    }
    expect([(await list({ ref_name: C2, path: 'never-existed.txt' })).status]).toEqual([200])
  })

  it('lists from an annotated tag, peeled to its commit', async () => {
    expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'v-annotated', ref: C3, message: 'Release' }), 201)
    expect(ids((await list({ ref_name: 'v-annotated' })).body)).toEqual([C3, C2, C1])
    expectStatus(await alice.api.del(`${repo(id)}/tags/v-annotated`), 204)
  })

  it('keeps commits on or after since and on or before until', async () => {
    expect(ids((await list({ since: '2024-01-03T10:00:00Z' })).body)).toEqual([C5, C3])
    expect(ids((await list({ until: '2024-01-02T10:00:00Z' })).body)).toEqual([C2, C1])
    expect(ids((await list({ since: '2024-01-02T00:00:00Z', until: '2024-01-03T23:59:59Z' })).body)).toEqual([C3, C2])
    expect(ids((await list({ since: '2024-01-05T10:00:01Z' })).body)).toEqual([])
  })

  it('keeps commits that touched path: a file, a deleted file, a directory', async () => {
    expect(ids((await list({ path: 'src/app.txt' })).body)).toEqual([C3, C1])
    expect(ids((await list({ path: 'docs/guide.md' })).body)).toEqual([C5, C2])
    expect(ids((await list({ path: 'docs' })).body)).toEqual([C5, C2])
    expect(ids((await list({ path: 'feature.txt', ref_name: 'feature' })).body)).toEqual([C4])
    const none = await list({ path: 'never-existed.txt' })
    expect([none.status, none.body, none.headers.get('x-next-page')]).toEqual([200, [], ''])
  })

  it('reads path as a file path: slashes around it are dropped, globs are not expanded, climbing out is refused', async () => {
    expect(ids((await list({ path: 'src/' })).body)).toEqual([C3, C1])
    expect(ids((await list({ path: '/docs' })).body)).toEqual([C5, C2])
    expect(ids((await list({ path: '/' })).body)).toEqual([C5, C3, C2, C1])
    expect(ids((await list({ path: 'src/*.txt' })).body)).toEqual([])
    const out = await list({ path: '../etc' })
    expect([out.status, out.body]).toEqual([400, { message: '400 Bad request - path is invalid: "../etc"' }])
  })

  it('lists every commit of every branch and tag with all', async () => {
    expect(ids((await list({ all: true })).body)).toEqual([C6, C5, C4, C3, C2, C1])
    expect(ids((await list({ all: true, path: 'src/app.txt' })).body)).toEqual([C3, C1])
  })

  it('adds stats with with_stats', async () => {
    const res = await list({ with_stats: true })
    for (const c of res.body) Commit.strict().parse(c)
    expect(res.body.map((c: { id: string; stats: unknown }) => [c.id, c.stats])).toEqual([
      [C5, { additions: 0, deletions: 1, total: 1 }],
      [C3, { additions: 1, deletions: 1, total: 2 }],
      [C2, { additions: 1, deletions: 0, total: 1 }],
      [C1, { additions: 4, deletions: 0, total: 4 }],
    ])
    expect((await list()).body[0].stats).toBeUndefined()
  })

  // Counted up to 10,000 commits (Kaminari's MAX_COUNT_LIMIT, compat-notes 3.1); above that, see totals.test.ts.
  it('paginates with X-* headers, X-Total and a Link header that keeps the query', async () => {
    const base = `${server.api}${repo(id)}/commits`
    const headers = (res: { headers: Headers }) => Object.fromEntries(['x-total', 'x-total-pages', 'x-per-page', 'x-page', 'x-next-page', 'x-prev-page'].map((h) => [h, res.headers.get(h)]))
    const first = await list({ ref_name: 'master', per_page: 3 })
    expect(ids(first.body)).toEqual([C5, C3, C2])
    expect(headers(first)).toEqual({ 'x-total': '4', 'x-total-pages': '2', 'x-per-page': '3', 'x-page': '1', 'x-next-page': '2', 'x-prev-page': '' })
    expect(first.headers.get('link')).toBe(
      `<${base}?ref_name=master&per_page=3&page=2>; rel="next", ` +
      `<${base}?ref_name=master&per_page=3&page=1>; rel="first", ` +
      `<${base}?ref_name=master&per_page=3&page=2>; rel="last"`,
    )
    const second = await list({ ref_name: 'master', per_page: 3, page: 2 })
    expect(ids(second.body)).toEqual([C1])
    expect(headers(second)).toEqual({ 'x-total': '4', 'x-total-pages': '2', 'x-per-page': '3', 'x-page': '2', 'x-next-page': '', 'x-prev-page': '1' })
    expect(second.headers.get('link')).toBe(
      `<${base}?ref_name=master&per_page=3&page=1>; rel="prev", ` +
      `<${base}?ref_name=master&per_page=3&page=1>; rel="first", ` +
      `<${base}?ref_name=master&per_page=3&page=2>; rel="last"`,
    )
    const whole = await list({ per_page: 4 })
    expect([ids(whole.body), whole.headers.get('x-next-page'), whole.headers.get('x-total-pages')]).toEqual([[C5, C3, C2, C1], '', '1'])
    const past = await list({ per_page: 3, page: 5 })
    expect([past.status, past.body, past.headers.get('x-next-page'), past.headers.get('x-total')]).toEqual([200, [], '', '4'])
    const filtered = await list({ path: 'src/app.txt', per_page: 1 })
    expect([ids(filtered.body), filtered.headers.get('x-next-page'), filtered.headers.get('x-total')]).toEqual([[C3], '2', '2'])
    const filteredLast = await list({ path: 'src/app.txt', per_page: 1, page: 2 })
    expect([ids(filteredLast.body), filteredLast.headers.get('x-next-page'), filteredLast.headers.get('x-total-pages')]).toEqual([[C1], '', '2'])
  })

  it('counts what the pages list: the total equals the commits collected by following every next page', async () => {
    expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'v-counted', ref: C4, message: 'Counted' }), 201)
    const queries: Record<string, string | number | boolean>[] = [
      {}, { ref_name: 'feature' }, { ref_name: 'detached' }, { ref_name: 'v-counted', path: 'src' }, { ref_name: C3 }, { ref_name: C4.slice(0, 10) }, { all: true },
      { path: 'src/app.txt' }, { path: 'docs', all: true }, { since: '2024-01-02T10:00:00Z', until: '2024-01-04T10:00:00Z', all: true },
      { first_parent: true, ref_name: 'feature' }, { author: 'ALICE', order: 'topo', all: true }, { path: 'never-existed.txt' },
      { since: '2024-01-07T00:00:00Z' }, { author: 'nobody' },
    ]
    for (const query of queries) {
      const collected: string[] = []
      let total: string | null = null
      for (let page: string | null = '1', n = 0; page && n < 10; n++) {
        const res = await list({ ...query, per_page: 2, page })
        expect([query, res.status]).toEqual([query, 200])
        total ??= res.headers.get('x-total')
        expect([query, res.headers.get('x-total'), res.headers.get('x-total-pages')]).toEqual([query, total, String(Math.max(1, Math.ceil(Number(total) / 2)))])
        collected.push(...ids(res.body))
        page = res.headers.get('x-next-page')
      }
      expect([query, total]).toEqual([query, String(collected.length)])
      expect([query, new Set(collected).size]).toEqual([query, collected.length])
    }
    expectStatus(await alice.api.del(`${repo(id)}/tags/v-counted`), 204)
  })
})

describe('GET /projects/:id/repository/commits from packed refs', () => {
  it('lists branches, tags and HEAD that git has packed, and no branch for a name that only begins others', async () => {
    const p = await createProject(alice.api, { name: 'packed' })
    const base = (await commit(alice.api, p.id, { commit_message: 'Base', actions: [create('a.txt', 'a\n')] })).id
    const side = (await commit(alice.api, p.id, { branch: 'side/deeper', start_branch: 'master', commit_message: 'Side', actions: [create('s.txt', 's\n')] })).id
    expectStatus(await alice.api.post(`${repo(p.id)}/tags`, { tag_name: 'annotated', ref: 'side/deeper', message: 'A tag' }), 201)
    expectStatus(await alice.api.post(`${repo(p.id)}/branches`, { branch: 'sidecar', ref: 'master' }), 201)
    gitIn(server, p.id, ['pack-refs', '--all', '--prune'])
    const listed = async (ref_name: string) => ids((await alice.api.get(`${repo(p.id)}/commits`, { query: { ref_name } })).body)
    expect(await listed('master')).toEqual([base])
    expect(await listed('sidecar')).toEqual([base])
    expect(await listed('side/deeper')).toEqual([side, base])
    expect(await listed('annotated')).toEqual([side, base])
    expect(await listed('HEAD')).toEqual([base])
    expect((await alice.api.get(`${repo(p.id)}/commits`, { query: { ref_name: 'side' } })).status).toBe(404)
  })
})

describe('GET /projects/:id/repository/commits on an empty repository', () => {
  it('answers an empty list', async () => {
    const empty = await createProject(alice.api, { name: 'empty' })
    const res = await alice.api.get(`${repo(empty.id)}/commits`)
    expect([res.status, res.body, res.headers.get('x-total'), res.headers.get('x-total-pages'), res.headers.get('x-next-page')]).toEqual([200, [], '0', '1', ''])
  })
})

describe('GET /projects/:id/repository/commits: who may read', () => {
  it('answers 404 for a private project to anonymous and to outsiders, and lists it for members', async () => {
    const p = await createProject(alice.api, { name: 'secret' })
    await commit(alice.api, p.id, { commit_message: 'x', actions: [create('x.txt', 'x\n')] })
    const outsider = await createUser(server, 'outsider')
    for (const who of [api(server), outsider.api]) {
      const res = await who.get(`${repo(p.id)}/commits`)
      expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
    }
    expect((await alice.api.get(`${repo(p.id)}/commits`)).status).toBe(200)
  })
})
