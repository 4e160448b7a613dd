// GET and POST /projects/:id/repository/commits/:sha/comments, with GitLab's line-placement rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CommitComment } from '../../../src/contract/entities/repository.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let rita: TestUser
let gus: TestUser
let id: number
/** README.md "a b c" -> "a B c d": new lines 2 and 4 added, old line 2 removed, lines 1 and 3 context. */
let sha: string
let aliceBasic: Record<string, unknown>

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  rita = await createUser(server, 'rita', { name: 'Rita Reporter' })
  gus = await createUser(server, 'gus', { name: 'Gus Guest' })
  aliceBasic = { id: alice.id, username: 'alice', name: 'Alice Liddell', state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/${alice.id}/identicon.svg`, web_url: `${server.url}/alice` }
  id = (await createProject(alice.api, { name: 'comments' })).id
  await alice.api.post(`/projects/${id}/members`, { user_id: rita.id, access_level: 20 })
  await alice.api.post(`/projects/${id}/members`, { user_id: gus.id, access_level: 10 })
  await commit(alice.api, id, { commit_message: 'Initial commit', actions: [create('README.md', 'a\nb\nc\n')] })
  sha = (await commit(alice.api, id, { commit_message: 'Edit', actions: [update('README.md', 'a\nB\nc\nd\n')] })).id
})
afterAll(() => server.close())

const post = (ref: string, body: Record<string, unknown>, as = alice.api) => as.post(`${repo(id)}/commits/${ref}/comments`, body)
const placement = (c: { path: unknown; line: unknown; line_type: unknown }) => [c.path, c.line, c.line_type]

describe('POST /projects/:id/repository/commits/:sha/comments', () => {
  it('adds a comment on the commit and answers 201 with it', async () => {
    const res = await post(sha, { note: 'Looks good' })
    expect(res.status).toBe(201)
    expect(CommitComment.strict().parse(res.body)).toEqual({ note: 'Looks good', path: null, line: null, line_type: null, author: aliceBasic, created_at: NOW })
  })

  it('places the comment on a line with the full SHA, path, line and line_type', async () => {
    expect(placement((await post(sha, { note: 'new line', path: 'README.md', line: 4, line_type: 'new' })).body)).toEqual(['README.md', 4, 'new'])
    expect(placement((await post(sha, { note: 'removed line', path: 'README.md', line: 2, line_type: 'old' })).body)).toEqual(['README.md', 2, 'old'])
    // line_type defaults to new.
    expect(placement((await post(sha, { note: 'default type', path: 'README.md', line: 2 })).body)).toEqual(['README.md', 2, 'new'])
  })

  it('adds the comment to the commit without a place when the line is not one the commit changed', async () => {
    expect(placement((await post(sha, { note: 'context line', path: 'README.md', line: 3, line_type: 'new' })).body)).toEqual([null, null, null])
    expect(placement((await post(sha, { note: 'past the end', path: 'README.md', line: 99, line_type: 'new' })).body)).toEqual([null, null, null])
    expect(placement((await post(sha, { note: 'wrong side', path: 'README.md', line: 4, line_type: 'old' })).body)).toEqual([null, null, null])
  })

  it('gives null placement for a branch name with an invalid path or line', async () => {
    const byBranch = await post('master', { note: 'no such file', path: 'nope.md', line: 1, line_type: 'new' })
    expect(byBranch.status).toBe(201)
    expect(placement(byBranch.body)).toEqual([null, null, null])
    expect(placement((await post('master', { note: 'no such line', path: 'README.md', line: 42, line_type: 'new' })).body)).toEqual([null, null, null])
    expect(placement((await post('master', { note: 'path only', path: 'README.md' })).body)).toEqual([null, null, null])
  })

  it('refuses a missing note, an unknown line_type and a non-integer line', async () => {
    const missing = await post(sha, { path: 'README.md' })
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "note" not given' }])
    const type = await post(sha, { note: 'x', line_type: 'both' })
    expect([type.status, type.body]).toEqual([400, { message: { line_type: ['does not have a valid value'] } }])
    const line = await post(sha, { note: 'x', line: 'two' })
    expect([line.status, line.body]).toEqual([400, { message: { line: ['is invalid'] } }])
  })

  it('answers 404 for an unknown commit, 403 to a Guest of a private project and 401 without credentials', async () => {
    const unknown = await post('0123456789abcdef0123456789abcdef01234567', { note: 'x' })
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Commit Not Found' }])
    const guest = await post(sha, { note: 'x' }, gus.api)
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }])
    const anonymous = await post(sha, { note: 'x' }, api(server))
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    expect((await post(sha, { note: 'a Reporter may comment' }, rita.api)).status).toBe(201)
  })
})

describe('GET /projects/:id/repository/commits/:sha/comments', () => {
  it('lists the comments of the commit, oldest first, by SHA or branch name, paginated', async () => {
    const p = (await createProject(alice.api, { name: 'listed' })).id
    await alice.api.post(`/projects/${p}/members`, { user_id: rita.id, access_level: 20 })
    const c = (await commit(alice.api, p, { commit_message: 'One', actions: [create('x.txt', 'x\n')] })).id
    expectStatus(await alice.api.post(`${repo(p)}/commits/${c}/comments`, { note: 'first' }), 201)
    expectStatus(await rita.api.post(`${repo(p)}/commits/${c}/comments`, { note: 'second', path: 'x.txt', line: 1, line_type: 'new' }), 201)
    expectStatus(await alice.api.post(`${repo(p)}/commits/${c}/comments`, { note: 'third' }), 201)
    const res = await rita.api.get(`${repo(p)}/commits/${c}/comments`)
    expect(res.status).toBe(200)
    for (const comment of res.body) CommitComment.strict().parse(comment)
    expect(res.body.map((x: { note: string; author: { username: string } }) => [x.note, x.author.username])).toEqual([['first', 'alice'], ['second', 'rita'], ['third', 'alice']])
    expect(res.body[1]).toEqual({
      note: 'second', path: 'x.txt', line: 1, line_type: 'new', created_at: NOW,
      author: { id: rita.id, username: 'rita', name: 'Rita Reporter', state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/${rita.id}/identicon.svg`, web_url: `${server.url}/rita` },
    })
    expect((await rita.api.get(`${repo(p)}/commits/master/comments`)).body).toEqual(res.body)
    const page = await rita.api.get(`${repo(p)}/commits/${c}/comments`, { query: { per_page: 2, page: 2 } })
    expect([page.body.map((x: { note: string }) => x.note), page.headers.get('x-total')]).toEqual([['third'], '3'])
  })

  it('answers 404 for an unknown commit', async () => {
    const res = await alice.api.get(`${repo(id)}/commits/deadbeefdeadbeef/comments`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }])
  })
})
