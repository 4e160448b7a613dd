// GET /issues, /groups/:id/issues, /projects/:id/issues: every filter, scopes, order, pagination.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IssueBasic } from '../../../src/contract/entities/issues.js'
import { createGroup, createProject, createUser, expectStatus, movableClock, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const clock = movableClock('2024-01-01T00:00:00Z')
let server: TestServer
let alice: TestUser
let bob: TestUser
let project: any
let other: any
let group: any
let grouped: any

const iids = (body: any[]) => body.map((i) => i.iid)

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  project = await createProject(alice.api, { name: 'demo' })
  other = await createProject(bob.api, { name: 'bobs', visibility: 'public' })
  group = await createGroup(alice.api, { name: 'Team', path: 'team' })
  grouped = await createProject(alice.api, { name: 'tool', namespace_id: group.id })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  const m = expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1' }), 201).body
  const day = (d: number) => clock.set(`2024-01-0${d}T00:00:00Z`)
  day(1); await createIssue(alice.api, project.id, { title: 'Crash on start', labels: 'bug,critical', milestone_id: m.id })
  day(2); await createIssue(alice.api, project.id, { title: 'Docs typo', description: 'the word crash is misspelled', labels: 'docs' })
  day(3); await createIssue(bob.api, project.id, { title: 'Feature', assignee_ids: [alice.id], labels: 'bug' })
  day(4); await createIssue(bob.api, other.id, { title: 'Elsewhere crash' })
  day(5); await createIssue(alice.api, grouped.id, { title: 'Grouped' })
  day(6); expectStatus(await alice.api.put(issuePath(project.id, 2), { state_event: 'close' }), 200)
  expectStatus(await bob.api.post(issuePath(project.id, 1, '/notes'), { body: ':thumbsup:' }), 201)
})
afterAll(() => server.close())

const list = async (as: TestUser, path: string, query: Record<string, any> = {}) => {
  const res = expectStatus(await as.api.get(path, { query }), 200)
  for (const i of res.body) IssueBasic.strict().parse(i)
  return res
}

describe('GET /projects/:id/issues', () => {
  it('lists every issue newest first, without subscribed or _links, with pagination headers', async () => {
    const res = await list(alice, `/projects/${project.id}/issues`)
    expect(iids(res.body)).toEqual([3, 2, 1])
    expect(res.body[0].subscribed).toBeUndefined()
    expect(res.body[0]._links).toBeUndefined()
    expect([res.headers.get('x-total'), res.headers.get('x-page'), res.headers.get('x-per-page')]).toEqual(['3', '1', '20'])
  })

  it('filters by state, labels (all must match), No+Label and Any', async () => {
    const path = `/projects/${project.id}/issues`
    expect(iids((await list(alice, path, { state: 'opened' })).body)).toEqual([3, 1])
    expect(iids((await list(alice, path, { state: 'closed' })).body)).toEqual([2])
    expect(iids((await list(alice, path, { state: 'all' })).body)).toEqual([3, 2, 1])
    expect(iids((await list(alice, path, { labels: 'bug' })).body)).toEqual([3, 1])
    expect(iids((await list(alice, path, { labels: 'bug,critical' })).body)).toEqual([1])
    expect(iids((await list(alice, path, { labels: 'bug,docs' })).body)).toEqual([])
    expect(iids((await list(alice, path, { labels: 'unknown' })).body)).toEqual([])
    const none = await createIssue(alice.api, project.id, { title: 'Unlabelled' })
    expect(iids((await alice.api.get(path, { query: 'labels=No+Label' })).body)).toEqual([none.iid])
    expect(iids((await list(alice, path, { labels: 'None' })).body)).toEqual([none.iid])
    expect(iids((await list(alice, path, { labels: 'Any' })).body)).toEqual([3, 2, 1])
    expectStatus(await alice.api.del(issuePath(project.id, none.iid)), 204)
  })

  it('filters by milestone title, No+Milestone, iids[], author, assignee and search in title or description', async () => {
    const path = `/projects/${project.id}/issues`
    expect(iids((await list(alice, path, { milestone: 'v1' })).body)).toEqual([1])
    expect(iids((await alice.api.get(path, { query: 'milestone=No+Milestone' })).body)).toEqual([3, 2])
    expect(iids((await list(alice, path, { iids: [1, 3, 99] })).body)).toEqual([3, 1])
    expect(iids((await list(alice, path, { author_id: bob.id })).body)).toEqual([3])
    expect(iids((await list(alice, path, { assignee_id: alice.id })).body)).toEqual([3])
    expect(iids((await list(alice, path, { assignee_id: 'None' })).body)).toEqual([2, 1])
    expect(iids((await list(alice, path, { search: 'crash' })).body)).toEqual([2, 1])
    expect(iids((await list(alice, path, { my_reaction_emoji: 'thumbsup' })).body)).toEqual([])
    expect(iids((await list(bob, path, { my_reaction_emoji: 'thumbsup' })).body)).toEqual([1])
  })

  it('filters by creation and update times, on or after and on or before', async () => {
    const path = `/projects/${project.id}/issues`
    expect(iids((await list(alice, path, { created_after: '2024-01-02T00:00:00Z' })).body)).toEqual([3, 2])
    expect(iids((await list(alice, path, { created_before: '2024-01-02T00:00:00Z' })).body)).toEqual([2, 1])
    expect(iids((await list(alice, path, { updated_after: '2024-01-06T00:00:00Z' })).body)).toEqual([2])
    expect(iids((await list(alice, path, { updated_before: '2024-01-05T00:00:00Z' })).body)).toEqual([3, 1])
  })

  it('orders by created_at or updated_at, ascending or descending', async () => {
    const path = `/projects/${project.id}/issues`
    expect(iids((await list(alice, path, { sort: 'asc' })).body)).toEqual([1, 2, 3])
    expect(iids((await list(alice, path, { order_by: 'updated_at' })).body)).toEqual([2, 3, 1])
  })

  it('pages with per_page and page', async () => {
    const res = await list(alice, `/projects/${project.id}/issues`, { per_page: 2, page: 2 })
    expect(iids(res.body)).toEqual([1])
    expect([res.headers.get('x-total'), res.headers.get('x-total-pages'), res.headers.get('x-prev-page')]).toEqual(['3', '2', '1'])
  })

  it('answers 400 for a bad filter value', async () => {
    const res = await alice.api.get(`/projects/${project.id}/issues`, { query: { state: 'open' } })
    expect([res.status, res.body]).toEqual([400, { message: { state: ['does not have a valid value'] } }])
    expect((await alice.api.get(`/projects/${project.id}/issues`, { query: { created_after: 'yesterday' } })).body).toEqual({ message: { created_after: ['is invalid'] } })
  })
})

describe('GET /issues', () => {
  it('lists only the caller’s own issues by default (created_by_me)', async () => {
    expect((await list(bob, '/issues')).body.map((i: any) => i.title)).toEqual(['Elsewhere crash', 'Feature'])
  })

  it('takes assigned_to_me, all, and the pre-11.0 hyphenated forms', async () => {
    expect((await list(alice, '/issues', { scope: 'assigned_to_me' })).body.map((i: any) => i.title)).toEqual(['Feature'])
    expect((await list(alice, '/issues', { scope: 'assigned-to-me' })).body.map((i: any) => i.title)).toEqual(['Feature'])
    expect((await list(bob, '/issues', { scope: 'created-by-me' })).body).toHaveLength(2)
    expect((await list(alice, '/issues', { scope: 'all', search: 'crash' })).body.map((i: any) => i.title)).toEqual(['Elsewhere crash', 'Docs typo', 'Crash on start'])
    expect((await list(alice, '/issues', { scope: 'all', author_id: bob.id })).body.map((i: any) => i.title)).toEqual(['Elsewhere crash', 'Feature'])
  })

  it('shows only issues of projects the caller can see', async () => {
    const carol = await createUser(server, 'carol')
    expect((await list(carol, '/issues', { scope: 'all' })).body.map((i: any) => i.title)).toEqual(['Elsewhere crash'])
  })
})

describe('GET /groups/:id/issues', () => {
  it("lists the issues of the group's projects", async () => {
    expect((await list(alice, `/groups/${group.id}/issues`)).body.map((i: any) => i.title)).toEqual(['Grouped'])
    expect((await list(alice, '/groups/team/issues', { state: 'closed' })).body).toEqual([])
  })

  it('answers 404 for a group the caller cannot see', async () => {
    expect((await bob.api.get(`/groups/${group.id}/issues`)).body).toEqual({ message: '404 Group Not Found' })
  })
})
