// Issue lists are joined from remembered per-issue texts: every change to what an issue shows must reach the next list,
// also with a clock that stands still (so updated_at does not move) and with the response cache off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stmt } from '../../../src/server/store/db.js'
import { createProject, createUser, expectStatus, movableClock, rawRequest, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath } from '../../helpers/issues.js'
import { commit, create } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const clock = movableClock('2024-01-02T03:04:05.000Z')
let server: TestServer
let alice: TestUser
let bob: TestUser
let project: any
let issue: any
let milestone: any

beforeAll(async () => {
  server = await startTestServer({ clock, responseCache: false })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/labels`, { name: 'bug', color: '#ff0000' }), 201)
  milestone = expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1', due_date: '2024-01-10' }), 201).body
  issue = await createIssue(alice.api, project.id, { title: 'one', labels: 'bug', milestone_id: milestone.id, assignee_ids: [bob.id] })
  await createIssue(alice.api, project.id, { title: 'two' })
})
afterAll(() => server.close())

/** The first issue as the list shows it. */
const listed = async () => {
  const list = expectStatus(await alice.api.get(`/projects/${project.id}/issues`, { query: { sort: 'asc' } }), 200).body
  expect(list.map((i: any) => i.title)).toEqual([expect.any(String), 'two'])
  return list[0]
}

describe('an issue in a list', () => {
  it('shows a renamed label, a new vote and a new comment', async () => {
    expect((await listed()).labels).toEqual(['bug'])
    expectStatus(await alice.api.put(`/projects/${project.id}/labels/bug`, { new_name: 'defect' }), 200)
    expect((await listed()).labels).toEqual(['defect'])
    expectStatus(await bob.api.post(issuePath(project.id, issue.iid, '/notes'), { body: ':thumbsup:' }), 201)
    expect((await listed()).upvotes).toBe(1)
    expectStatus(await bob.api.post(issuePath(project.id, issue.iid, '/notes'), { body: 'a comment' }), 201)
    expect((await listed()).user_notes_count).toBe(1)
  })

  it('shows its edited row, labels and assignees', async () => {
    expectStatus(await alice.api.put(issuePath(project.id, issue.iid), { title: 'One', add_labels: 'extra', assignee_ids: [alice.id] }), 200)
    const one = await listed()
    expect([one.title, one.labels, one.assignees.map((u: any) => u.username)]).toEqual(['One', ['defect', 'extra'], ['alice']])
  })

  it("shows a renamed milestone, its author's new name, and a milestone that expired overnight", async () => {
    expectStatus(await alice.api.put(`/projects/${project.id}/milestones/${milestone.id}`, { title: 'v1.1' }), 200)
    expect((await listed()).milestone).toMatchObject({ title: 'v1.1', expired: false })
    stmt(server.app.db, "UPDATE users SET name = 'Alice A.' WHERE id = ?").run(alice.id)
    expect((await listed()).author.name).toBe('Alice A.')
    clock.set('2024-01-11T00:00:01.000Z')
    expect((await listed()).milestone.expired).toBe(true)
  })

  it("shows the project's new path, and URLs built on the address each caller used", async () => {
    expectStatus(await alice.api.put(`/projects/${project.id}`, { path: 'renamed' }), 200)
    expect((await listed()).web_url).toBe(`${server.url}/alice/renamed/-/issues/${issue.iid}`)
    const other = await rawRequest(server, { path: `/api/v4/projects/${project.id}/issues?sort=asc`, headers: { host: 'collab.example:8080', 'private-token': alice.token } })
    expect(other.body[0].web_url).toBe(`http://collab.example:8080/alice/renamed/-/issues/${issue.iid}`)
    expect((await listed()).web_url).toBe(`${server.url}/alice/renamed/-/issues/${issue.iid}`)
  })
  it('shows a merge request that closes it and a vote taken back', async () => {
    await commit(alice.api, project.id, { branch: 'main', commit_message: 'init', actions: [create('README.md', 'hi')] })
    await commit(alice.api, project.id, { branch: 'fix', start_branch: 'main', commit_message: 'fix', actions: [create('fix.txt', 'fix')] })
    expectStatus(await alice.api.post(`/projects/${project.id}/merge_requests`, {
      source_branch: 'fix', target_branch: 'main', title: 'Fix', description: `Closes #${issue.iid}`,
    }), 201)
    expect((await listed()).merge_requests_count).toBe(1)
    // Any write counts, not only the API's: the database itself marks the issue changed.
    stmt(server.app.db, 'DELETE FROM award_emoji WHERE noteable_id = ?').run(issue.id)
    expect((await listed()).upvotes).toBe(0)
  })

  it('shows a new issue made on the id of a deleted one, not the text remembered for that id', async () => {
    const last = await createIssue(alice.api, project.id, { title: 'last' })
    const titles = async () => expectStatus(await alice.api.get(`/projects/${project.id}/issues`, { query: { sort: 'asc' } }), 200).body.map((i: any) => i.title)
    expect((await titles()).at(-1)).toBe('last')
    expectStatus(await alice.api.del(issuePath(project.id, last.iid)), 204)
    // Ids are never handed out again since migration 032; a database may still hold one reused before it.
    stmt(server.app.db, "UPDATE sqlite_sequence SET seq = ? WHERE name = 'noteables'").run(last.id - 1)
    const next = await createIssue(alice.api, project.id, { title: 'next' })
    expect(next.id).toBe(last.id)
    expect((await titles()).at(-1)).toBe('next')
  })
})
