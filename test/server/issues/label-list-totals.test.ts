// Issue list pages and X-Total, which take plans of their own (a count driven from the label or the assignee index, a
// milestone's issues from theirs, deep pages read from the far end): they must agree with the whole list.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let carol: TestUser
let project: any
let other: any

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  carol = await createUser(server, 'carol')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  // A label of the same name in another project must not count here.
  other = await createProject(alice.api, { name: 'other', visibility: 'public' })
  await createIssue(alice.api, other.id, { title: 'Elsewhere', labels: 'bug', assignee_ids: [alice.id] })
  await createIssue(alice.api, project.id, { title: 'One', labels: 'bug,critical' })
  await createIssue(alice.api, project.id, { title: 'Two', labels: 'bug' })
  await createIssue(alice.api, project.id, { title: 'Three', labels: 'docs' })
  await createIssue(alice.api, project.id, { title: 'Secret', labels: 'bug', confidential: true })
  const carols = await createIssue(carol.api, project.id, { title: 'Carol secret', confidential: true })
  await createIssue(alice.api, project.id, { title: 'Bare' })
  // A non-member's labels are dropped on create, as in GitLab: a maintainer labels it.
  expectStatus(await alice.api.put(issuePath(project.id, carols.iid), { add_labels: 'bug' }), 200)
  expectStatus(await alice.api.put(issuePath(project.id, 2), { state_event: 'close' }), 200)
  for (const iid of [1, 2, 4]) expectStatus(await alice.api.put(issuePath(project.id, iid), { assignee_ids: [alice.id] }), 200)
  expectStatus(await alice.api.put(issuePath(project.id, carols.iid), { assignee_ids: [carol.id] }), 200)
  // A milestone of the same title elsewhere holds an issue there only.
  const v1 = expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1' }), 201).body
  const otherV1 = expectStatus(await alice.api.post(`/projects/${other.id}/milestones`, { title: 'v1' }), 201).body
  for (const iid of [2, 3, 4]) expectStatus(await alice.api.put(issuePath(project.id, iid), { milestone_id: v1.id }), 200)
  expectStatus(await alice.api.put(issuePath(other.id, 1), { milestone_id: otherV1.id }), 200)
})
afterAll(() => server.close())

const totals = async (as: TestUser, query: Record<string, string>) => {
  const res = expectStatus(await as.api.get(`/projects/${project.id}/issues`, { query: { per_page: '100', ...query } }), 200)
  return [res.headers.get('x-total'), String(res.body.length)]
}

it('counts what the list shows, for every mix of labels, state and visibility', async () => {
  const cases: [TestUser, Record<string, string>, string][] = [
    [alice, { labels: 'bug' }, '4'],
    [alice, { labels: 'bug,critical' }, '1'],
    [alice, { labels: 'critical,bug' }, '1'],
    [alice, { labels: 'bug,bug' }, '4'],
    [alice, { labels: 'bug', state: 'opened' }, '3'],
    [alice, { labels: 'bug', state: 'closed' }, '1'],
    [alice, { labels: 'bug,docs' }, '0'],
    [alice, { labels: 'unknown' }, '0'],
    [alice, { labels: 'Any,docs' }, '1'],
    [alice, { labels: 'None' }, '1'],
    [alice, { labels: 'bug', confidential: 'true' }, '2'],
    [alice, { labels: 'bug', search: 'secret' }, '2'],
    // A non-member sees only their own confidential issue.
    [carol, { labels: 'bug' }, '3'],
    [carol, { labels: 'bug', confidential: 'true' }, '1'],
    [alice, { assignee_id: String(alice.id) }, '3'],
    [alice, { assignee_id: String(alice.id), state: 'opened' }, '2'],
    [alice, { assignee_id: String(alice.id), confidential: 'true' }, '1'],
    [alice, { assignee_id: String(alice.id), labels: 'bug' }, '3'],
    [alice, { assignee_id: String(carol.id) }, '1'],
    [carol, { assignee_id: String(alice.id) }, '2'],
    [alice, { milestone: 'v1' }, '3'],
    [alice, { milestone: 'v1', state: 'opened' }, '2'],
    [alice, { milestone: 'v2' }, '0'],
    [carol, { milestone: 'v1' }, '2'],
  ]
  for (const [as, query, want] of cases) expect([JSON.stringify(query), ...(await totals(as, query))]).toEqual([JSON.stringify(query), want, want])
})

it('gives every page, near and far from the start, as slices of the whole list in its order', async () => {
  const list = async (query: Record<string, string>) =>
    expectStatus(await alice.api.get(`/projects/${project.id}/issues`, { query }), 200).body.map((i: any) => i.iid)
  const filters: Record<string, string>[] = [{}, { labels: 'bug' }, { order_by: 'updated_at', sort: 'asc' }, { sort: 'asc' }, { state: 'opened' }, { milestone: 'v1' }]
  for (const filter of filters) {
    const all = await list({ ...filter, per_page: '100' })
    for (const perPage of [1, 2, 4]) {
      for (let page = 1; page <= Math.ceil(all.length / perPage) + 1; page++) {
        const want = all.slice((page - 1) * perPage, page * perPage)
        expect([filter, perPage, page, await list({ ...filter, per_page: String(perPage), page: String(page) })]).toEqual([filter, perPage, page, want])
      }
    }
  }
})
