// Issue links: create (relates_to, blocks, is_blocked_by, across projects), list from both ends, read, delete, the
// system notes on both sides, GitLab's errors; and an issue's related merge requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { createIssue, issuePath } from '../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './merge-requests/fixtures.js'

const AT = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let demo: any
let other: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(AT) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  demo = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  other = await createProject(alice.api, { name: 'other' })
})
afterAll(() => server.close())

/** The list form of an issue, as GET …/issues answers it. */
async function listed(projectId: number, iid: number) {
  const [issue] = expectStatus(await alice.api.get(`/projects/${projectId}/issues`, { query: { iids: [iid] } }), 200).body
  return issue
}
const systemNotes = async (projectId: number, iid: number) =>
  expectStatus(await alice.api.get(issuePath(projectId, iid, '/notes'), { query: { sort: 'asc' } }), 200).body.filter((n: any) => n.system).map((n: any) => n.body)

describe('issue links', () => {
  let a: any
  let b: any
  let c: any
  let x: any
  beforeAll(async () => {
    a = await createIssue(alice.api, demo.id, { title: 'A' })
    b = await createIssue(alice.api, demo.id, { title: 'B' })
    c = await createIssue(alice.api, demo.id, { title: 'C' })
    x = await createIssue(alice.api, other.id, { title: 'X' })
  })

  it('links two issues (201 with both ends) and writes a note on each side', async () => {
    const res = expectStatus(await alice.api.post(issuePath(demo.id, a.iid, '/links'), { target_project_id: demo.id, target_issue_iid: b.iid }), 201)
    expect(res.body).toEqual({ source_issue: await listed(demo.id, a.iid), target_issue: await listed(demo.id, b.iid), link_type: 'relates_to' })
    expect(await systemNotes(demo.id, a.iid)).toEqual([`marked this issue as related to #${b.iid}`])
    expect(await systemNotes(demo.id, b.iid)).toEqual([`marked this issue as related to #${a.iid}`])
  })

  it('stores is_blocked_by as the opposite blocks link, across projects by path', async () => {
    const res = expectStatus(await alice.api.post(issuePath(demo.id, a.iid, '/links'), { target_project_id: 'alice/other', target_issue_iid: x.iid, link_type: 'is_blocked_by' }), 201)
    expect(res.body).toEqual({ source_issue: await listed(other.id, x.iid), target_issue: await listed(demo.id, a.iid), link_type: 'blocks' })
    expect((await systemNotes(other.id, x.iid))).toEqual([`marked this issue as blocking demo#${a.iid}`])
    expect((await systemNotes(demo.id, a.iid)).at(-1)).toBe(`marked this issue as blocked by other#${x.iid}`)
  })

  it('lists the linked issues with the link seen from each end, oldest link first', async () => {
    expectStatus(await alice.api.post(issuePath(demo.id, c.iid, '/links'), { target_project_id: demo.id, target_issue_iid: a.iid, link_type: 'blocks' }), 201)
    const res = expectStatus(await alice.api.get(issuePath(demo.id, a.iid, '/links')), 200)
    const link = (issue: any, id: number, type: string) => ({ ...issue, issue_link_id: id, link_type: type, link_created_at: AT, link_updated_at: AT })
    const full = async (p: number, iid: number) => {
      const { subscribed, ...rest } = expectStatus(await alice.api.get(issuePath(p, iid)), 200).body
      return rest
    }
    expect(res.body).toEqual([
      link(await full(demo.id, b.iid), 1, 'relates_to'), link(await full(other.id, x.iid), 2, 'is_blocked_by'), link(await full(demo.id, c.iid), 3, 'is_blocked_by'),
    ])
    const fromX = expectStatus(await alice.api.get(issuePath(other.id, x.iid, '/links')), 200).body
    expect(fromX.map((r: any) => [r.iid, r.link_type])).toEqual([[a.iid, 'blocks']])
  })

  it('answers 409 for a pair already linked, in either direction', async () => {
    for (const [from, to] of [[a, b], [b, a]]) {
      const res = await alice.api.post(issuePath(demo.id, from.iid, '/links'), { target_project_id: demo.id, target_issue_iid: to.iid })
      expect([res.status, res.body]).toEqual([409, { message: 'Issue(s) already assigned' }])
    }
  })

  it('refuses a link to itself (422), bad types (400), missing or unseen targets (404)', async () => {
    const self = await alice.api.post(issuePath(demo.id, b.iid, '/links'), { target_project_id: demo.id, target_issue_iid: b.iid })
    expect([self.status, self.body]).toEqual([422, { message: `#${b.iid} cannot be added: cannot be related to itself` }])
    const type = await alice.api.post(issuePath(demo.id, b.iid, '/links'), { target_project_id: demo.id, target_issue_iid: c.iid, link_type: 'duplicates' })
    expect([type.status, type.body]).toEqual([400, { message: { link_type: ['does not have a valid value'] } }])
    const missing = await alice.api.post(issuePath(demo.id, b.iid, '/links'), { target_project_id: demo.id })
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "target_issue_iid" not given' }])
    const noIssue = await alice.api.post(issuePath(demo.id, b.iid, '/links'), { target_project_id: demo.id, target_issue_iid: 999 })
    expect([noIssue.status, noIssue.body]).toEqual([404, { message: '404 Issue Not Found' }])
    const unseen = await bob.api.post(issuePath(demo.id, b.iid, '/links'), { target_project_id: other.id, target_issue_iid: x.iid })
    expect([unseen.status, unseen.body]).toEqual([404, { message: '404 Project Not Found' }])
  })

  it('answers 403 to a non-member of a public project, and 401 without credentials', async () => {
    const res = await bob.api.post(issuePath(demo.id, b.iid, '/links'), { target_project_id: demo.id, target_issue_iid: c.iid })
    expect([res.status, res.body]).toEqual([403, { message: "Couldn't link issues. You must have at least the Guest role in both projects." }])
    const anon = await api(server).get(issuePath(demo.id, a.iid, '/links'))
    expect([anon.status, anon.body]).toEqual([401, { message: '401 Unauthorized' }])
  })

  it('hides links to issues the caller cannot see', async () => {
    const fromBob = expectStatus(await bob.api.get(issuePath(demo.id, a.iid, '/links')), 200).body
    expect(fromBob.map((r: any) => r.iid)).toEqual([b.iid, c.iid])
    const hidden = await bob.api.get(issuePath(demo.id, a.iid, '/links/2'))
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Not found' }])
  })

  it('reads one link as stored, from either end, and 404s a link of another issue', async () => {
    const res = expectStatus(await alice.api.get(issuePath(demo.id, b.iid, '/links/1')), 200)
    expect(res.body).toEqual({ source_issue: await listed(demo.id, a.iid), target_issue: await listed(demo.id, b.iid), link_type: 'relates_to' })
    const stranger = await alice.api.get(issuePath(demo.id, c.iid, '/links/1'))
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Not found' }])
  })

  it('deletes a link (200 with it), notes the removal on both sides, then 404s it', async () => {
    const before = { source_issue: await listed(demo.id, a.iid), target_issue: await listed(demo.id, b.iid), link_type: 'relates_to' }
    const res = expectStatus(await alice.api.del(issuePath(demo.id, b.iid, '/links/1')), 200)
    expect(res.body).toEqual(before)
    expect((await systemNotes(demo.id, a.iid)).at(-1)).toBe(`removed the relation with #${b.iid}`)
    expect((await systemNotes(demo.id, b.iid)).at(-1)).toBe(`removed the relation with #${a.iid}`)
    const again = await alice.api.del(issuePath(demo.id, b.iid, '/links/1'))
    expect([again.status, again.body]).toEqual([404, { message: '404 Not found' }])
    expect(expectStatus(await alice.api.get(issuePath(demo.id, b.iid, '/links')), 200).body).toEqual([])
  })

  it('drops the links of a deleted issue', async () => {
    expectStatus(await alice.api.del(issuePath(demo.id, c.iid)), 204)
    const left = expectStatus(await alice.api.get(issuePath(demo.id, a.iid, '/links')), 200).body
    expect(left.map((r: any) => [r.iid, r.issue_link_id])).toEqual([[x.iid, 2]])
    const count = server.app.db.prepare('SELECT COUNT(*) AS n FROM issue_links').get() as { n: number }
    expect(count.n).toBe(1)
  })
})

describe('archived projects', () => {
  it('refuses links to or from an issue of an archived project (403)', async () => {
    const frozen = await createProject(alice.api, { name: 'frozen', visibility: 'public' })
    const live = await createIssue(alice.api, demo.id, { title: 'Live' })
    const old = await createIssue(alice.api, frozen.id, { title: 'Old' })
    expectStatus(await alice.api.post(`/projects/${frozen.id}/archive`), 201)
    const message = "Couldn't link issues. You must have at least the Guest role in both projects."
    const to = await alice.api.post(issuePath(demo.id, live.iid, '/links'), { target_project_id: frozen.id, target_issue_iid: old.iid })
    expect([to.status, to.body]).toEqual([403, { message }])
    const from = await alice.api.post(issuePath(frozen.id, old.iid, '/links'), { target_project_id: demo.id, target_issue_iid: live.iid })
    expect([from.status, from.body]).toEqual([403, { message }])
  })
})

describe('the link limit', () => {
  it('refuses a 101st link of an issue (422, GitLab\'s MAX_LINKS_COUNT)', async () => {
    const crowded = await createProject(alice.api, { name: 'crowded' })
    const hub = await createIssue(alice.api, crowded.id, { title: 'Hub' })
    for (let i = 0; i < 101; i++) {
      const spoke = await createIssue(alice.api, crowded.id, { title: `Spoke ${i}` })
      const res = await alice.api.post(issuePath(crowded.id, hub.iid, '/links'), { target_project_id: crowded.id, target_issue_iid: spoke.iid })
      if (i < 100) expectStatus(res, 201)
      else expect([res.status, res.body]).toEqual([422, { message: `#${spoke.iid} cannot be added: This issue would exceed the maximum number of linked issues (100).` }])
    }
  }, 60_000)
})

describe('related merge requests', () => {
  it('lists merge requests that close or mention the issue, and not those naming another', async () => {
    const p = await createProject(alice.api, { name: 'related', visibility: 'public' })
    await seedMaster(alice.api, p.id)
    const issue = await createIssue(alice.api, p.id, { title: 'Target' })
    const decoy = await createIssue(alice.api, p.id, { title: 'Decoy' })
    for (const b of ['one', 'two', 'three', 'four']) await branchWith(alice.api, p.id, b, `${b}.txt`)
    const closing = await openMergeRequest(alice.api, p.id, { source_branch: 'one', title: 'One', description: `Closes #${issue.iid}` })
    const naming = await openMergeRequest(alice.api, p.id, { source_branch: 'two', title: `See ${server.url}/alice/related/-/issues/${issue.iid}` })
    const noted = await openMergeRequest(alice.api, p.id, { source_branch: 'three', title: 'Three' })
    expectStatus(await alice.api.post(mrPath(p.id, noted.iid, '/notes'), { body: `about alice/related#${issue.iid} too` }), 201)
    await openMergeRequest(alice.api, p.id, { source_branch: 'four', title: `Fixes #${decoy.iid}, not #${issue.iid}0` })
    const res = expectStatus(await api(server).get(issuePath(p.id, issue.iid, '/related_merge_requests')), 200)
    const single = async (iid: number) => {
      const { subscribed, ...rest } = expectStatus(await alice.api.get(mrPath(p.id, iid)), 200).body
      return { ...rest, user: { can_merge: false } }
    }
    expect(res.body).toEqual([await single(closing.iid), await single(naming.iid), await single(noted.iid)])
    expect(res.headers.get('x-total')).toBe('3')
    const closedBy = expectStatus(await alice.api.get(issuePath(p.id, issue.iid, '/closed_by')), 200).body
    expect(closedBy.map((m: any) => m.iid)).toEqual([closing.iid])
  })
})
