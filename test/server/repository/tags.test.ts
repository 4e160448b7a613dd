// Tags, lightweight and annotated: list with search and order, get, create, delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Tag } from '../../../src/contract/entities/repository.js'
import { api, createProject, createUser, expectStatus, movableClock, type TestUser } from '../../helpers/api.js'
import { catFile, commit, create, repo } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const clock = movableClock('2024-01-02T03:04:05Z')
const DAY1 = '2024-01-01T10:00:00.000+00:00'
const DAY2 = '2024-01-02T10:00:00.000+00:00'
/** FIRST (2024-01-01) <- SECOND (2024-01-02) on master. */
const FIRST = 'a8360aa601e4fac8dc982a9295c2ced5f8477119'
const SECOND = 'd80964d2f72936302091cbabc4e9ceb458e4d096'

let server: TestServer
let alice: TestUser
let rita: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  rita = await createUser(server, 'rita', { name: 'Rita Reporter' })
})
afterAll(() => server.close())

let projects = 0
async function fixture() {
  const p = await createProject(alice.api, { name: `tags-${++projects}` })
  await alice.api.post(`/projects/${p.id}/members`, { user_id: rita.id, access_level: 20 })
  clock.set('2024-01-01T10:00:00Z')
  expect((await commit(alice.api, p.id, { commit_message: 'First', actions: [create('a.txt', 'a\n')] })).id).toBe(FIRST)
  clock.set('2024-01-02T10:00:00Z')
  expect((await commit(alice.api, p.id, { commit_message: 'Second', actions: [create('b.txt', 'b\n')] })).id).toBe(SECOND)
  clock.set('2024-01-03T12:00:00Z')
  return { id: p.id as number, path: p.path_with_namespace as string }
}

const commitOf = (sha: string, title: string, parents: string[], date: string, path: string) => ({
  id: sha, short_id: sha.slice(0, 8), created_at: date, parent_ids: parents, title, message: `${title}\n`,
  author_name: 'Alice Liddell', author_email: 'alice@example.com', authored_date: date,
  committer_name: 'Alice Liddell', committer_email: 'alice@example.com', committed_date: date,
  trailers: {}, extended_trailers: {}, web_url: `${server.url}/${path}/-/commit/${sha}`,
})

describe('POST /projects/:id/repository/tags', () => {
  it('creates a lightweight tag: the target is the commit, no message, no date', async () => {
    const { id, path } = await fixture()
    const res = await alice.api.post(`${repo(id)}/tags`, { tag_name: 'v1.0.0', ref: 'master' })
    expect(res.status).toBe(201)
    expect(Tag.strict().parse(res.body)).toEqual({
      name: 'v1.0.0', message: '', target: SECOND, commit: commitOf(SECOND, 'Second', [FIRST], DAY2, path), release: null, protected: false, created_at: null,
    })
  })

  it('creates an annotated tag when a message is given: the target is the tag object', async () => {
    const { id, path } = await fixture()
    const res = await alice.api.post(`${repo(id)}/tags`, { tag_name: 'v0.1', ref: FIRST, message: 'First release\n\nNotes.' })
    expect(res.status).toBe(201)
    // The same object `git tag -a v0.1 -m …` writes.
    const TAG = '782751d5d5e0f1c08cf436516ecb9c0ed350007d'
    expect(Tag.strict().parse(res.body)).toEqual({
      name: 'v0.1', message: 'First release\n\nNotes.', target: TAG, commit: commitOf(FIRST, 'First', [], DAY1, path),
      release: null, protected: false, created_at: '2024-01-03T12:00:00.000+00:00',
    })
    expect(catFile(server, id, TAG)).toBe(`object ${FIRST}\ntype commit\ntag v0.1\ntagger Alice Liddell <alice@example.com> 1704283200 +0000\n\nFirst release\n\nNotes.\n`)
  })

  it('answers 400 when the tag exists, the ref is unknown or the name is invalid', async () => {
    const { id } = await fixture()
    expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'v1', ref: FIRST }), 201)
    const post = (body: Record<string, unknown>) => alice.api.post(`${repo(id)}/tags`, body).then((r) => [r.status, r.body])
    expect(await post({ tag_name: 'v1', ref: 'master' })).toEqual([400, { message: 'Tag v1 already exists' }])
    expect(await post({ tag_name: 'v2', ref: 'nowhere' })).toEqual([400, { message: 'Target nowhere is invalid' }])
    for (const tag_name of ['bad..name', 'HEAD', 'refs/tags/v1', 'v'.repeat(251), '-v']) {
      expect(await post({ tag_name, ref: 'master' })).toEqual([400, { message: 'Tag name invalid' }])
    }
    expect(await post({ ref: 'master' })).toEqual([400, { message: '400 (Bad request) "tag_name" not given' }])
    expect((await alice.api.get(`${repo(id)}/tags/v1`)).body.commit.id).toBe(FIRST)
  })

  it('answers 403 to a Reporter and 401 without credentials', async () => {
    const { id } = await fixture()
    const reporter = await rita.api.post(`${repo(id)}/tags`, { tag_name: 'x', ref: 'master' })
    expect([reporter.status, reporter.body]).toEqual([403, { message: '403 Forbidden' }])
    const anonymous = await api(server).post(`${repo(id)}/tags`, { tag_name: 'x', ref: 'master' })
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    expect((await alice.api.get(`${repo(id)}/tags`)).body).toEqual([])
  })
})

describe('GET /projects/:id/repository/tags and tags/:tag_name', () => {
  let id: number
  beforeAll(async () => {
    ;({ id } = await fixture())
    for (const [tag_name, ref] of [['v1.10.0', SECOND], ['v1.2.0', FIRST], ['v1.9.0', SECOND], ['release/2024', FIRST]]) {
      expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name, ref }), 201)
    }
  })
  const tagNames = async (query: Record<string, string> = {}) => (await rita.api.get(`${repo(id)}/tags`, { query })).body.map((t: { name: string }) => t.name)

  it('lists tags newest commit first by default', async () => {
    const res = await rita.api.get(`${repo(id)}/tags`)
    expect(res.status).toBe(200)
    for (const t of res.body) Tag.strict().parse(t)
    expect(await tagNames()).toEqual(['v1.10.0', 'v1.9.0', 'release/2024', 'v1.2.0'])
  })

  it('orders by name or version, either way, and searches', async () => {
    expect(await tagNames({ order_by: 'name', sort: 'asc' })).toEqual(['release/2024', 'v1.10.0', 'v1.2.0', 'v1.9.0'])
    expect(await tagNames({ order_by: 'version', sort: 'desc' })).toEqual(['release/2024', 'v1.10.0', 'v1.9.0', 'v1.2.0'])
    expect(await tagNames({ order_by: 'version', sort: 'asc', search: '^v1' })).toEqual(['v1.2.0', 'v1.9.0', 'v1.10.0'])
    expect(await tagNames({ search: '2024$' })).toEqual(['release/2024'])
  })

  it('gets one tag by its URL-encoded name, and 404 Tag Not Found', async () => {
    const res = await rita.api.get(`${repo(id)}/tags/release%2F2024`)
    expect([res.status, res.body.name, res.body.commit.id]).toEqual([200, 'release/2024', FIRST])
    const missing = await rita.api.get(`${repo(id)}/tags/v9`)
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Tag Not Found' }])
  })
})

describe('DELETE /projects/:id/repository/tags/:tag_name', () => {
  it('deletes a tag and answers 204', async () => {
    const { id } = await fixture()
    expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'gone', ref: 'master', message: 'bye' }), 201)
    const res = await alice.api.del(`${repo(id)}/tags/gone`)
    expect([res.status, res.text]).toEqual([204, ''])
    expect((await alice.api.get(`${repo(id)}/tags/gone`)).status).toBe(404)
  })

  it('answers 404 Tag Not Found, 403 to a Reporter and 401 without credentials', async () => {
    const { id } = await fixture()
    expectStatus(await alice.api.post(`${repo(id)}/tags`, { tag_name: 'kept', ref: 'master' }), 201)
    const missing = await alice.api.del(`${repo(id)}/tags/nope`)
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Tag Not Found' }])
    const reporter = await rita.api.del(`${repo(id)}/tags/kept`)
    expect([reporter.status, reporter.body]).toEqual([403, { message: '403 Forbidden' }])
    const anonymous = await api(server).del(`${repo(id)}/tags/kept`)
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    expect((await alice.api.get(`${repo(id)}/tags/kept`)).status).toBe(200)
  })
})
