// Resource label, milestone and state events of issues and merge requests: recorded by every change, read back in
// GitLab's shapes, private projects and confidential issues hidden.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { createIssue, issuePath, userBasic } from '../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './merge-requests/fixtures.js'

const AT = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let demo: any
let bug: any
let feature: any
let v1: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(AT) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  demo = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  await seedMaster(alice.api, demo.id)
  bug = expectStatus(await alice.api.post(`/projects/${demo.id}/labels`, { name: 'bug', color: '#FF0000', description: 'Broken' }), 201).body
  feature = expectStatus(await alice.api.post(`/projects/${demo.id}/labels`, { name: 'feature', color: '#eeeeee' }), 201).body
  v1 = expectStatus(await alice.api.post(`/projects/${demo.id}/milestones`, { title: 'v1' }), 201).body
})
afterAll(() => server.close())

const labelOf = (l: any) => ({ id: l.id, name: l.name, color: l.color, description: l.description, description_html: l.description ?? '', text_color: l.text_color, remove_on_close: false })
const milestoneOf = (m: any) => ({
  id: m.id, iid: m.iid, project_id: demo.id, title: m.title, description: '', state: 'active', created_at: AT, updated_at: AT,
  due_date: null, start_date: null, expired: false, web_url: `${server.url}/alice/demo/-/milestones/${m.iid}`,
})
const event = (id: number, type: 'Issue' | 'MergeRequest', resourceId: number, rest: object) =>
  ({ id, user: userBasic(server, alice), created_at: AT, resource_type: type, resource_id: resourceId, ...rest })

describe('issue events', () => {
  let issue: any
  beforeAll(async () => {
    issue = await createIssue(alice.api, demo.id, { title: 'Crash', labels: 'bug', milestone_id: v1.id })
    expectStatus(await alice.api.put(issuePath(demo.id, issue.iid), { add_labels: 'feature', remove_labels: 'bug', milestone_id: 0, state_event: 'close' }), 200)
    expectStatus(await alice.api.put(issuePath(demo.id, issue.iid), { state_event: 'reopen' }), 200)
  })

  it('records labels added at creation and by an edit, one event per label', async () => {
    const res = expectStatus(await alice.api.get(issuePath(demo.id, issue.iid, '/resource_label_events')), 200)
    expect(res.body).toEqual([
      event(1, 'Issue', issue.id, { label: labelOf(bug), action: 'add' }),
      event(2, 'Issue', issue.id, { label: labelOf(feature), action: 'add' }),
      event(3, 'Issue', issue.id, { label: labelOf(bug), action: 'remove' }),
    ])
    expect(res.headers.get('x-total')).toBe('3')
  })

  it('records the milestone set at creation and removed, with the issue state at the time', async () => {
    const res = expectStatus(await alice.api.get(issuePath(demo.id, issue.iid, '/resource_milestone_events')), 200)
    expect(res.body).toEqual([
      event(1, 'Issue', issue.id, { milestone: milestoneOf(v1), action: 'add', state: 'opened' }),
      event(2, 'Issue', issue.id, { milestone: milestoneOf(v1), action: 'remove', state: 'closed' }),
    ])
  })

  it('records close and reopen (as `reopened`), not the creation', async () => {
    const res = expectStatus(await alice.api.get(issuePath(demo.id, issue.iid, '/resource_state_events')), 200)
    expect(res.body).toEqual([
      event(1, 'Issue', issue.id, { source_commit: null, source_merge_request_id: null, state: 'closed' }),
      event(2, 'Issue', issue.id, { source_commit: null, source_merge_request_id: null, state: 'reopened' }),
    ])
  })

  it('reads one event, and 404s an event of another issue or none', async () => {
    const one = expectStatus(await alice.api.get(issuePath(demo.id, issue.iid, '/resource_label_events/2')), 200)
    expect(one.body).toEqual(event(2, 'Issue', issue.id, { label: labelOf(feature), action: 'add' }))
    const other = await createIssue(alice.api, demo.id, { title: 'Other' })
    for (const path of [issuePath(demo.id, other.iid, '/resource_label_events/1'), issuePath(demo.id, issue.iid, '/resource_state_events/99')]) {
      const res = await alice.api.get(path)
      expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }])
    }
  })

  it('keeps an event whose label was deleted, with a null label', async () => {
    const temp = expectStatus(await alice.api.post(`/projects/${demo.id}/labels`, { name: 'temp', color: '#00FF00' }), 201).body
    const i = await createIssue(alice.api, demo.id, { title: 'Temp', labels: 'temp' })
    expectStatus(await alice.api.del(`/projects/${demo.id}/labels/${temp.id}`), 204)
    const res = expectStatus(await alice.api.get(issuePath(demo.id, i.iid, '/resource_label_events')), 200)
    expect(res.body).toEqual([event(4, 'Issue', i.id, { label: null, action: 'add' })])
  })

  it('answers 401 without credentials and 404 for a missing issue', async () => {
    const anon = await api(server).get(issuePath(demo.id, issue.iid, '/resource_label_events'))
    expect([anon.status, anon.body]).toEqual([401, { message: '401 Unauthorized' }])
    const missing = await alice.api.get(issuePath(demo.id, 999, '/resource_state_events'))
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Issue Not Found' }])
  })

  it('hides a private project and a confidential issue from those who cannot see them', async () => {
    const secret = await createProject(alice.api, { name: 'secret' })
    const i = await createIssue(alice.api, secret.id, { title: 'Hidden' })
    const res = await bob.api.get(issuePath(secret.id, i.iid, '/resource_label_events'))
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
    const confidential = await createIssue(alice.api, demo.id, { title: 'Quiet', confidential: true })
    const hidden = await bob.api.get(issuePath(demo.id, confidential.iid, '/resource_milestone_events'))
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Issue Not Found' }])
    expectStatus(await alice.api.get(issuePath(demo.id, confidential.iid, '/resource_milestone_events')), 200)
  })
})

describe('merge request events', () => {
  it('records labels, close, reopen and merge, and the issues a merge closes name it', async () => {
    const closing = await createIssue(alice.api, demo.id, { title: 'To close' })
    await branchWith(alice.api, demo.id, 'feature', 'f.txt')
    const mr = await openMergeRequest(alice.api, demo.id, { source_branch: 'feature', title: 'Feature', description: `Closes #${closing.iid}`, labels: 'feature', milestone_id: v1.id })
    expectStatus(await alice.api.put(mrPath(demo.id, mr.iid), { state_event: 'close' }), 200)
    expectStatus(await alice.api.put(mrPath(demo.id, mr.iid), { state_event: 'reopen' }), 200)
    expectStatus(await alice.api.put(mrPath(demo.id, mr.iid, '/merge')), 200)
    const labels = expectStatus(await alice.api.get(mrPath(demo.id, mr.iid, '/resource_label_events')), 200).body
    expect(labels).toEqual([event(5, 'MergeRequest', mr.id, { label: labelOf(feature), action: 'add' })])
    const milestones = expectStatus(await alice.api.get(mrPath(demo.id, mr.iid, '/resource_milestone_events')), 200).body
    expect(milestones).toEqual([event(3, 'MergeRequest', mr.id, { milestone: milestoneOf(v1), action: 'add', state: 'opened' })])
    const states = expectStatus(await alice.api.get(mrPath(demo.id, mr.iid, '/resource_state_events')), 200).body
    const none = { source_commit: null, source_merge_request_id: null }
    expect(states).toEqual([
      event(3, 'MergeRequest', mr.id, { ...none, state: 'closed' }),
      event(4, 'MergeRequest', mr.id, { ...none, state: 'reopened' }),
      event(5, 'MergeRequest', mr.id, { ...none, state: 'merged' }),
    ])
    const issueStates = expectStatus(await alice.api.get(issuePath(demo.id, closing.iid, '/resource_state_events')), 200).body
    expect(issueStates).toEqual([event(6, 'Issue', closing.id, { source_commit: null, source_merge_request_id: mr.id, state: 'closed' })])
    const single = expectStatus(await alice.api.get(mrPath(demo.id, mr.iid, '/resource_state_events/5')), 200).body
    expect(single).toEqual(states[2])
  })
})

describe('moving an issue', () => {
  it('copies its events to the new issue (milestones mapped by title) and records the close of the old one', async () => {
    const target = await createProject(alice.api, { name: 'target' })
    const v1There = expectStatus(await alice.api.post(`/projects/${target.id}/milestones`, { title: 'v1' }), 201).body
    const issue = await createIssue(alice.api, demo.id, { title: 'Travels', labels: 'bug', milestone_id: v1.id })
    expectStatus(await alice.api.put(issuePath(demo.id, issue.iid), { milestone_id: 0 }), 200)
    const moved = expectStatus(await alice.api.post(issuePath(demo.id, issue.iid, '/move'), { to_project_id: target.id }), 201).body
    const read = async (kind: string, projectId = target.id, iid = moved.iid) => expectStatus(await alice.api.get(issuePath(projectId, iid, `/resource_${kind}_events`)), 200).body
    expect(await read('label')).toEqual([event(7, 'Issue', moved.id, { label: labelOf(bug), action: 'add' })])
    const there = { ...milestoneOf(v1There), project_id: target.id, web_url: `${server.url}/alice/target/-/milestones/1` }
    expect(await read('milestone')).toEqual([
      event(6, 'Issue', moved.id, { milestone: there, action: 'add', state: 'opened' }),
      event(7, 'Issue', moved.id, { milestone: null, action: 'remove', state: 'opened' }),
    ])
    expect(await read('state')).toEqual([])
    expect(await read('state', demo.id, issue.iid)).toEqual([event(7, 'Issue', issue.id, { source_commit: null, source_merge_request_id: null, state: 'closed' })])
  })
})

describe('a deleted user', () => {
  it("leaves their events to the ghost user, or takes them along with hard_delete", async () => {
    const carol = await createUser(server, 'carol')
    const dave = await createUser(server, 'dave')
    const p = await createProject(alice.api, { name: 'shared' })
    for (const u of [carol, dave]) expectStatus(await alice.api.post(`/projects/${p.id}/members`, { user_id: u.id, access_level: 20 }), 201)
    const issue = await createIssue(alice.api, p.id, { title: 'Shared' })
    expectStatus(await carol.api.put(issuePath(p.id, issue.iid), { state_event: 'close' }), 200)
    expectStatus(await dave.api.put(issuePath(p.id, issue.iid), { state_event: 'reopen' }), 200)
    const root = api(server, server.rootToken)
    expectStatus(await root.del(`/users/${carol.id}`), 204)
    expectStatus(await root.del(`/users/${dave.id}`, { query: { hard_delete: true } }), 204)
    const [ghost] = expectStatus(await root.get('/users', { query: { username: 'ghost' } }), 200).body
    const events = expectStatus(await alice.api.get(issuePath(p.id, issue.iid, '/resource_state_events')), 200).body
    expect(events.map((e: any) => [e.user.username, e.user.id, e.state])).toEqual([['ghost', ghost.id, 'closed']])
  })
})
