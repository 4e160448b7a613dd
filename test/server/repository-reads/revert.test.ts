// POST …/repository/commits/:sha/revert: the inverse change committed on a branch, a dry run, and GitLab's refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { branchHead, commit, create, gitIn, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let rita: TestUser
let id: number
let first: string
let second: string

const REFUSED = 'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.'

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  rita = await createUser(server, 'rita', { name: 'Rita Reporter' })
  id = (await createProject(alice.api, { name: 'revert' })).id
  await alice.api.post(`/projects/${id}/members`, { user_id: rita.id, access_level: 20 })
  first = (await commit(alice.api, id, { branch: 'main', commit_message: 'First', actions: [create('a.txt', '1\n2\n3\n')] })).id
  second = (await commit(alice.api, id, { branch: 'main', commit_message: 'Second\n\nbody', actions: [update('a.txt', '1\nTWO\n3\n'), create('b.txt', 'b\n')] })).id
})
afterAll(() => server.close())

const raw = (path: string) => alice.api.get(`${repo(id)}/files/${encodeURIComponent(path)}/raw`, { query: { ref: 'main' } })

describe('POST …/commits/:sha/revert', () => {
  it('answers success for a dry run and leaves the branch where it was', async () => {
    const res = await alice.api.post(`${repo(id)}/commits/${second}/revert`, { branch: 'main', dry_run: true })
    expect([res.status, res.body]).toEqual([200, { dry_run: 'success' }])
    expect(await branchHead(alice.api, id, 'main')).toBe(second)
  })

  it('commits the inverse change with GitLab\'s message and answers the commit', async () => {
    const res = expectStatus(await alice.api.post(`${repo(id)}/commits/${second}/revert`, { branch: 'main' }), 201)
    expect(res.body).toMatchObject({
      title: 'Revert "Second"', message: `Revert "Second"\n\nThis reverts commit ${second}`, parent_ids: [second],
      author_name: 'Alice Liddell', committer_name: 'Alice Liddell', committed_date: '2024-01-02T03:04:05.000+00:00',
    })
    expect(await branchHead(alice.api, id, 'main')).toBe(res.body.id)
    expect((await raw('a.txt')).text).toBe('1\n2\n3\n')
    expect((await raw('b.txt')).status).toBe(404)
  })

  it("stores GitLab's message as written, without a final newline, while other commits keep theirs", async () => {
    const head = await branchHead(alice.api, id, 'main')
    const object = gitIn(server, id, ['cat-file', 'commit', head!])
    expect(object.endsWith(`\n\nRevert "Second"\n\nThis reverts commit ${second}`)).toBe(true)
    expect(gitIn(server, id, ['cat-file', 'commit', second]).endsWith('\n\nSecond\n\nbody\n')).toBe(true)
    expect((await alice.api.get(`${repo(id)}/commits/${second}`)).body.message).toBe('Second\n\nbody\n')
  })

  it("names the merge request a reverted merge commit merged, and cuts a long title as Commit#title", async () => {
    const long = `${'word '.repeat(19)}tail end`
    await commit(alice.api, id, { branch: 'topic', start_branch: 'main', commit_message: long, actions: [create('t.txt', 't\n')] })
    const mr = expectStatus(await alice.api.post(`/projects/${id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: long }), 201).body
    const merged = expectStatus(await alice.api.put(`/projects/${id}/merge_requests/${mr.iid}/merge`), 200).body
    const res = expectStatus(await alice.api.post(`${repo(id)}/commits/${merged.merge_commit_sha}/revert`, { branch: 'main' }), 201)
    expect(res.body.message).toBe(`Revert "Merge branch 'topic' into 'main'"\n\nThis reverts merge request !${mr.iid}`)
    const topic = await branchHead(alice.api, id, 'topic')
    const title = expectStatus(await alice.api.post(`${repo(id)}/commits/${topic}/revert`, { branch: 'topic' }), 201).body.title
    expect(title).toBe(`Revert "${'word '.repeat(14)}word..."`)
  })

  it('refuses a change the branch no longer has with error_code empty', async () => {
    const res = await alice.api.post(`${repo(id)}/commits/${second}/revert`, { branch: 'main' })
    expect([res.status, res.body]).toEqual([400, { message: REFUSED, error_code: 'empty' }])
  })

  it('refuses a conflicting revert with error_code conflict, the branch unmoved', async () => {
    const head = (await commit(alice.api, id, { branch: 'main', commit_message: 'Third', actions: [update('a.txt', 'x\ny\nz\n')] })).id
    const res = await alice.api.post(`${repo(id)}/commits/${first}/revert`, { branch: 'main' })
    expect([res.status, res.body]).toEqual([400, { message: REFUSED, error_code: 'conflict' }])
    expect(await branchHead(alice.api, id, 'main')).toBe(head)
  })

  it.each([
    ['an unknown commit', 'f'.repeat(40), { branch: 'main' }, 404, '{"message":"404 Commit Not Found"}'],
    ['an unknown branch', 'main', { branch: 'nope' }, 404, '{"message":"404 Branch Not Found"}'],
    ['no branch', 'main', {}, 400, '{"message":"400 (Bad request) \\"branch\\" not given"}'],
  ])('answers %s', async (_what, sha, body, status, text) => {
    const res = await alice.api.post(`${repo(id)}/commits/${sha}/revert`, body)
    expect([res.status, res.text]).toEqual([status, text])
  })

  it('needs push rights: a Reporter gets 403', async () => {
    const res = await rita.api.post(`${repo(id)}/commits/${second}/revert`, { branch: 'main' })
    expect([res.status, res.text]).toEqual([403, '{"message":"403 Forbidden"}'])
  })
})
