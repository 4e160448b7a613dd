// X-Total of a project's issue list, filtered by nothing or by state and one label, comes from counters the database
// keeps with its triggers (migration 026). After every kind of write, it must equal the count the list's own WHERE gives,
// which a filter the counters do not cover (created_after the epoch) forces.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let group: any
let one: any
let two: any

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  group = expectStatus(await alice.api.post('/groups', { name: 'team', path: 'team' }), 201).body
  one = await createProject(alice.api, { name: 'one', namespace_id: group.id })
  two = await createProject(alice.api, { name: 'two', namespace_id: group.id })
  expectStatus(await alice.api.post(`/groups/${group.id}/labels`, { name: 'shared', color: '#00ff00' }), 201)
})
afterAll(() => server.close())

const FILTERS: Record<string, string>[] = [
  {}, { state: 'opened' }, { state: 'closed' }, { labels: 'bug' }, { labels: 'bug', state: 'closed' }, { labels: 'docs' },
  { labels: 'shared' }, { labels: 'shared', state: 'opened' }, { labels: 'gone' },
]

const total = async (projectId: number, query: Record<string, string>) =>
  expectStatus(await alice.api.get(`/projects/${projectId}/issues`, { query: { ...query, per_page: '1' } }), 200).headers.get('x-total')

/** Every filter's kept total next to the counted one, for both projects, and the projects' open_issues_count. */
async function expectCountsAgree(step: string) {
  for (const p of [one, two]) {
    for (const f of FILTERS) {
      const counted = await total(p.id, { ...f, created_after: '1970-01-01T00:00:00Z' })
      expect([step, p.path, f, await total(p.id, f)]).toEqual([step, p.path, f, counted])
    }
    const open = expectStatus(await alice.api.get(`/projects/${p.id}`), 200).body.open_issues_count
    expect([step, p.path, String(open)]).toEqual([step, p.path, await total(p.id, { state: 'opened', created_after: '1970-01-01T00:00:00Z' })])
  }
}

it('keeps every count equal to the counted one through creates, edits, moves, deletes and label changes', async () => {
  const a = await createIssue(alice.api, one.id, { title: 'a', labels: 'bug,shared' })
  const b = await createIssue(alice.api, one.id, { title: 'b', labels: 'docs' })
  const c = await createIssue(alice.api, one.id, { title: 'c', labels: 'bug' })
  await createIssue(alice.api, two.id, { title: 'd', labels: 'shared,bug' })
  await expectCountsAgree('created')

  expectStatus(await alice.api.put(issuePath(one.id, a.iid), { state_event: 'close' }), 200)
  expectStatus(await alice.api.put(issuePath(one.id, c.iid), { state_event: 'close' }), 200)
  await expectCountsAgree('closed')
  expectStatus(await alice.api.put(issuePath(one.id, c.iid), { state_event: 'reopen', add_labels: 'shared', remove_labels: 'bug' }), 200)
  expectStatus(await alice.api.put(issuePath(one.id, b.iid), { labels: 'bug,gone' }), 200)
  await createIssue(alice.api, one.id, { title: 'f', labels: 'gone,docs' })
  await expectCountsAgree('relabelled')

  expectStatus(await alice.api.post(issuePath(one.id, b.iid, '/move'), { to_project_id: two.id }), 201)
  await expectCountsAgree('moved')
  expectStatus(await alice.api.del(issuePath(one.id, a.iid)), 204)
  await expectCountsAgree('deleted an issue')
  expectStatus(await alice.api.del(`/projects/${one.id}/labels/gone`), 204)
  await expectCountsAgree('deleted a label')
  expectStatus(await alice.api.put(`/projects/${one.id}/labels/docs/promote`), 200)
  await expectCountsAgree('promoted a label')

  // A project made again after a delete may get the old id; it starts from nothing.
  expectStatus(await alice.api.del(`/projects/${two.id}`), 202)
  two = await createProject(alice.api, { name: 'three', namespace_id: group.id })
  await createIssue(alice.api, two.id, { title: 'e', labels: 'shared' })
  await expectCountsAgree('deleted a project and made another')
})
