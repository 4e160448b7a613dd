// Group milestones: CRUD, lists with ancestors, and issues and merge requests of the group's projects taking them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Milestone } from '../../src/contract/entities/issues.js'
import { createGroup, createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { createIssue } from '../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let guest: TestUser
let top: any
let sub: any
let project: any
let elsewhere: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  guest = await createUser(server, 'guest')
  top = await createGroup(alice.api, { name: 'Top', path: 'top', visibility: 'private' })
  sub = await createGroup(alice.api, { name: 'Sub', path: 'sub', parent_id: top.id, visibility: 'private' })
  project = await createProject(alice.api, { name: 'app', namespace_id: sub.id, initialize_with_readme: true })
  elsewhere = await createProject(alice.api, { name: 'mine' })
  expectStatus(await alice.api.post(`/groups/${top.id}/members`, { user_id: guest.id, access_level: 10 }), 201)
})
afterAll(() => server.close())

describe('group milestones', () => {
  it('creates one (201) with group_id and no project_id, a per-group iid and the group web_url', async () => {
    const res = await alice.api.post(`/groups/${top.id}/milestones`, { title: 'v1', description: 'First', due_date: '2024-03-01T00:00:00Z', start_date: '2024-01-01' })
    expect(res.status).toBe(201)
    expect(Milestone.strict().parse(res.body)).toEqual({
      id: res.body.id, iid: 1, group_id: top.id, title: 'v1', description: 'First', state: 'active', created_at: NOW, updated_at: NOW,
      due_date: '2024-03-01', start_date: '2024-01-01', expired: false, web_url: `${server.url}/groups/top/-/milestones/1`,
    })
    const second = (await alice.api.post(`/groups/${top.id}/milestones`, { title: 'v2' })).body
    expect([second.iid, (await alice.api.post(`/groups/${sub.id}/milestones`, { title: 'sub-1' })).body.iid]).toEqual([2, 1])
    expect((await alice.api.post(`/projects/${project.id}/milestones`, { title: 'local' })).body.iid).toBe(1)
  })

  it('answers 400 for a duplicate or blank title, 403 below Reporter, 404 for another group\'s milestone', async () => {
    expect((await alice.api.post(`/groups/${top.id}/milestones`, { title: 'v1' })).body).toEqual({ message: { title: ['has already been taken'] } })
    expect((await alice.api.post(`/groups/${top.id}/milestones`, { title: ' ' })).body).toEqual({ message: { title: ["can't be blank"] } })
    expect((await alice.api.post(`/groups/${top.id}/milestones`, {})).body).toEqual({ message: '400 (Bad request) "title" not given' })
    const res = await guest.api.post(`/groups/${top.id}/milestones`, { title: 'v9' })
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    const v1 = (await alice.api.get(`/groups/${top.id}/milestones`, { query: { title: 'v1' } })).body[0]
    expect((await alice.api.get(`/groups/${sub.id}/milestones/${v1.id}`)).body).toEqual({ message: '404 Milestone Not Found' })
    expect((await guest.api.get(`/groups/${top.id}/milestones/${v1.id}`)).body).toEqual(v1)
  })

  it('lists by state, iids, title and search, and with include_parent_milestones the ancestors\' too', async () => {
    const titles = async (id: number, query: Record<string, unknown> = {}) => (await alice.api.get(`/groups/${id}/milestones`, { query: query as any })).body.map((m: any) => m.title)
    expect(await titles(top.id)).toEqual(['v1', 'v2'])
    expect(await titles(top.id, { 'iids[]': 2 })).toEqual(['v2'])
    expect(await titles(top.id, { search: 'firs' })).toEqual(['v1'])
    expect(await titles(sub.id)).toEqual(['sub-1'])
    expect(await titles(sub.id, { include_parent_milestones: true })).toEqual(['v1', 'v2', 'sub-1'])
    const v2 = (await alice.api.get(`/groups/${top.id}/milestones`, { query: { title: 'v2' } })).body[0]
    const closed = await alice.api.put(`/groups/${top.id}/milestones/${v2.id}`, { state_event: 'close', description: 'Done' })
    expect([closed.status, closed.body.state, closed.body.description]).toEqual([200, 'closed', 'Done'])
    expect(await titles(top.id, { state: 'closed' })).toEqual(['v2'])
    expect(await titles(top.id, { state: 'active' })).toEqual(['v1'])
    expect(await titles(top.id, { state: 'all' })).toEqual(['v1', 'v2'])
    const projectList = (await alice.api.get(`/projects/${project.id}/milestones`, { query: { include_parent_milestones: true } })).body
    expect(projectList.map((m: any) => [m.title, m.project_id ?? null, m.group_id ?? null])).toEqual([['v1', null, top.id], ['v2', null, top.id], ['sub-1', null, sub.id], ['local', project.id, null]])
  })

  it('sets a group milestone on issues and merge requests of its projects, not elsewhere, and lists them', async () => {
    const v1 = (await alice.api.get(`/groups/${top.id}/milestones`, { query: { title: 'v1' } })).body[0]
    const issue = await createIssue(alice.api, project.id, { title: 'planned', milestone_id: v1.id })
    expect(issue.milestone).toEqual({ ...v1, closed_at: null })
    const loose = await createIssue(alice.api, elsewhere.id, { title: 'not in the group', milestone_id: v1.id })
    expect(loose.milestone).toBeNull()
    const later = await createIssue(alice.api, project.id, { title: 'later' })
    const edited = await alice.api.put(`/projects/${project.id}/issues/${later.iid}`, { milestone_id: v1.id })
    expect(edited.body.milestone.group_id).toBe(top.id)
    const notes = (await alice.api.get(`/projects/${project.id}/issues/${later.iid}/notes`)).body.map((n: any) => n.body)
    expect(notes).toContain('changed milestone to %"v1"')
    expectStatus(await alice.api.post(`/projects/${project.id}/repository/branches`, { branch: 'feature', ref: 'main' }), 201)
    const mr = (await alice.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'MR', milestone_id: v1.id })).body
    expect(mr.milestone).toEqual(v1)
    const issues = await alice.api.get(`/groups/${top.id}/milestones/${v1.id}/issues`)
    expect([issues.status, issues.body.map((i: any) => i.title)]).toEqual([200, ['later', 'planned']])
    const mrs = await alice.api.get(`/groups/${top.id}/milestones/${v1.id}/merge_requests`)
    expect([mrs.status, mrs.body.map((m: any) => m.iid)]).toEqual([200, [mr.iid]])
    expect((await alice.api.get(`/projects/${project.id}/issues`, { query: { milestone: 'v1' } })).body.length).toBe(2)
  })

  it('keeps a group milestone and group label on an issue moved to another project of the group, and drops them outside', async () => {
    const v1 = (await alice.api.get(`/groups/${top.id}/milestones`, { query: { title: 'v1' } })).body[0]
    expectStatus(await alice.api.post(`/groups/${top.id}/labels`, { name: 'shared', color: '#FF0000' }), 201)
    const sibling = await createProject(alice.api, { name: 'sibling', namespace_id: top.id })
    const issue = await createIssue(alice.api, project.id, { title: 'to move', milestone_id: v1.id, labels: 'shared' })
    const moved = await alice.api.post(`/projects/${project.id}/issues/${issue.iid}/move`, { to_project_id: sibling.id })
    expect([moved.status, moved.body.milestone?.id, moved.body.labels]).toEqual([201, v1.id, ['shared']])
    const away = await alice.api.post(`/projects/${sibling.id}/issues/${moved.body.iid}/move`, { to_project_id: elsewhere.id })
    expect([away.status, away.body.milestone, away.body.labels]).toEqual([201, null, []])
  })

  it('deletes one (204) and its issues keep no milestone', async () => {
    const v1 = (await alice.api.get(`/groups/${top.id}/milestones`, { query: { title: 'v1' } })).body[0]
    expect((await guest.api.del(`/groups/${top.id}/milestones/${v1.id}`)).status).toBe(403)
    expect((await alice.api.del(`/groups/${top.id}/milestones/${v1.id}`)).status).toBe(204)
    expect((await alice.api.get(`/projects/${project.id}/issues`, { query: { search: 'planned' } })).body[0].milestone).toBeNull()
    expect((await alice.api.get(`/groups/${top.id}/milestones/${v1.id}`)).body).toEqual({ message: '404 Milestone Not Found' })
  })
})
