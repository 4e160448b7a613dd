// Project labels and milestones (compat-notes §2 shapes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Label, Milestone } from '../../../src/contract/entities/issues.js'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { createIssue } from '../../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let guest: TestUser
let project: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  guest = await createUser(server, 'guest')
  project = await createProject(alice.api, { name: 'demo' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 }), 201)
})
afterAll(() => server.close())

describe('labels', () => {
  it('creates a label (201) with computed text color and counts', async () => {
    const res = await alice.api.post(`/projects/${project.id}/labels`, { name: 'bug', color: '#FF0000', description: 'Broken', priority: 1 })
    expect(res.status).toBe(201)
    expect(Label.strict().parse(res.body)).toEqual({
      id: res.body.id, name: 'bug', color: '#FF0000', text_color: '#FFFFFF', description: 'Broken', description_html: 'Broken',
      open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0, subscribed: false, priority: 1, is_project_label: true,
    })
    expect((await alice.api.post(`/projects/${project.id}/labels`, { name: 'light', color: '#eeeeee' })).body.text_color).toBe('#333333')
  })

  it('finds a label by id or by name, and counts open and closed issues', async () => {
    const bug = (await alice.api.get(`/projects/${project.id}/labels/bug`)).body
    expect((await alice.api.get(`/projects/${project.id}/labels/${bug.id}`)).body).toEqual(bug)
    await createIssue(alice.api, project.id, { title: 'a', labels: 'bug' })
    const closed = await createIssue(alice.api, project.id, { title: 'b', labels: 'bug' })
    expectStatus(await alice.api.put(`/projects/${project.id}/issues/${closed.iid}`, { state_event: 'close' }), 200)
    expect((await alice.api.get(`/projects/${project.id}/labels/bug`)).body).toMatchObject({ open_issues_count: 1, closed_issues_count: 1 })
  })

  it('answers 409 for a duplicate name, 400 for a bad color or missing one, 404 for an unknown label', async () => {
    expect((await alice.api.post(`/projects/${project.id}/labels`, { name: 'bug', color: '#000' })).body).toEqual({ message: 'Label already exists' })
    expect((await alice.api.post(`/projects/${project.id}/labels`, { name: 'x', color: 'not a color' })).body).toEqual({ message: { color: ['must be a valid color code'] } })
    expect((await alice.api.post(`/projects/${project.id}/labels`, { name: 'x' })).body).toEqual({ message: '400 (Bad request) "color" not given' })
    expect((await alice.api.get(`/projects/${project.id}/labels/nope`)).body).toEqual({ message: '404 Label Not Found' })
  })

  it('edits by id, name in the path, or name in the body (python-gitlab), and renames the label on its issues', async () => {
    expect((await alice.api.put(`/projects/${project.id}/labels/bug`, { color: '#00ff00' })).body.color).toBe('#00ff00')
    const renamed = await alice.api.put(`/projects/${project.id}/labels`, { name: 'bug', new_name: 'defect' })
    expect([renamed.status, renamed.body.name]).toEqual([200, 'defect'])
    expect((await alice.api.get(`/projects/${project.id}/issues`, { query: { labels: 'defect' } })).body.map((i: any) => i.labels)).toEqual([['defect'], ['defect']])
    expect((await alice.api.put(`/projects/${project.id}/labels/defect`, {})).body).toEqual({ error: 'new_name, color, description, priority, archived are missing, at least one parameter must be provided' })
  })

  it('deletes with 204, by path or by name, and only for reporters and up', async () => {
    expect((await guest.api.del(`/projects/${project.id}/labels/light`)).status).toBe(403)
    expect((await alice.api.del(`/projects/${project.id}/labels/light`)).status).toBe(204)
    expect((await alice.api.del(`/projects/${project.id}/labels`, { query: { name: 'defect' } })).status).toBe(204)
    expect((await alice.api.get(`/projects/${project.id}/labels`)).body).toEqual([])
    expect((await alice.api.get(`/projects/${project.id}/issues`)).body.map((i: any) => i.labels)).toEqual([[], []])
  })
})

describe('milestones', () => {
  it('creates one (201) with iid, web_url and expired, and lists it', async () => {
    const res = await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1.0', description: 'First', due_date: '2024-03-01', start_date: '2024-01-01' })
    expect(res.status).toBe(201)
    expect(Milestone.strict().parse(res.body)).toEqual({
      id: res.body.id, iid: 1, project_id: project.id, title: 'v1.0', description: 'First', state: 'active', created_at: NOW, updated_at: NOW,
      due_date: '2024-03-01', start_date: '2024-01-01', expired: false, web_url: `${server.url}/alice/demo/-/milestones/1`,
    })
    expect((await alice.api.get(`/projects/${project.id}/milestones`)).body).toEqual([res.body])
  })

  it('closes and activates with state_event, and filters by state', async () => {
    const m = (await alice.api.get(`/projects/${project.id}/milestones`)).body[0]
    const closed = await alice.api.put(`/projects/${project.id}/milestones/${m.id}`, { state_event: 'close' })
    expect([closed.status, closed.body.state]).toEqual([200, 'closed'])
    expect((await alice.api.get(`/projects/${project.id}/milestones`, { query: { state: 'active' } })).body).toEqual([])
    expect((await alice.api.put(`/projects/${project.id}/milestones/${m.id}`, { state_event: 'activate', title: 'v1.1' })).body).toMatchObject({ state: 'active', title: 'v1.1' })
  })

  it('lists the issues of a milestone and answers 400 for a duplicate title, 404 for an unknown id', async () => {
    const m = (await alice.api.get(`/projects/${project.id}/milestones`)).body[0]
    const issue = await createIssue(alice.api, project.id, { title: 'planned', milestone_id: m.id })
    expect((await alice.api.get(`/projects/${project.id}/milestones/${m.id}/issues`)).body.map((i: any) => i.iid)).toEqual([issue.iid])
    expect((await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1.1' })).body).toEqual({ message: { title: ['has already been taken'] } })
    expect((await alice.api.get(`/projects/${project.id}/milestones/9999`)).body).toEqual({ message: '404 Milestone Not Found' })
    expect((await alice.api.post(`/projects/${project.id}/milestones`, { title: 'bad', due_date: 'soon' })).body).toEqual({ message: { due_date: ['is invalid'] } })
  })

  it('deletes with 204 and leaves its issues without a milestone', async () => {
    const m = (await alice.api.get(`/projects/${project.id}/milestones`)).body[0]
    expect((await guest.api.del(`/projects/${project.id}/milestones/${m.id}`)).status).toBe(403)
    expect((await alice.api.del(`/projects/${project.id}/milestones/${m.id}`)).status).toBe(204)
    expect((await alice.api.get(`/projects/${project.id}/issues`, { query: { milestone: 'Any' } })).body).toEqual([])
  })

  it('takes the date part of an ISO timestamp for due_date and start_date, as GitLab (python-gitlab sends datetimes)', async () => {
    const m = (await alice.api.post(`/projects/${project.id}/milestones`, { title: 'dated', start_date: '2019-12-01T10:00:00.000+02:00' })).body
    expect(m.start_date).toBe('2019-12-01')
    const res = await alice.api.put(`/projects/${project.id}/milestones/${m.id}`, { due_date: '2020-01-01T00:00:00Z' })
    expect([res.status, res.body.due_date, res.body.start_date]).toEqual([200, '2020-01-01', '2019-12-01'])
    const bad = await alice.api.put(`/projects/${project.id}/milestones/${m.id}`, { due_date: '2020-02-31T00:00:00Z' })
    expect([bad.status, bad.body]).toEqual([400, { message: { due_date: ['is invalid'] } }])
  })
})
