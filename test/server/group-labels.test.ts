// Group labels: CRUD by id or name, list scopes, subscriptions, and how projects of the group see and use them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GroupLabel } from '../../src/contract/endpoints/group-labels.js'
import { Label } from '../../src/contract/entities/issues.js'
import { api, createGroup, createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { createIssue } from '../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'
import { deliveriesIdle } from '../../src/server/services/hooks/webhook-delivery.js'
import { startReceiver } from './hooks/receiver.js'

let server: TestServer
let alice: TestUser
let guest: TestUser
let outsider: TestUser
let top: any
let sub: any
let project: any

const counts = { open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 }
const groupLabel = (id: number, name: string, color: string, extra: Record<string, unknown> = {}) => ({
  id, name, color, text_color: '#FFFFFF', description: null, description_html: '', ...counts, subscribed: false, ...extra,
})

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
  guest = await createUser(server, 'guest')
  outsider = await createUser(server, 'outsider')
  top = await createGroup(alice.api, { name: 'Top', path: 'top', visibility: 'private' })
  sub = await createGroup(alice.api, { name: 'Sub', path: 'sub', parent_id: top.id, visibility: 'private' })
  project = await createProject(alice.api, { name: 'app', namespace_id: sub.id })
  expectStatus(await alice.api.post(`/groups/${top.id}/members`, { user_id: guest.id, access_level: 10 }), 201)
})
afterAll(() => server.close())

describe('group labels', () => {
  it('creates a label (201) in the GroupLabel shape, without priority or is_project_label', async () => {
    const res = await alice.api.post(`/groups/${top.id}/labels`, { name: 'bug', color: '#FF0000', description: 'Broken' })
    expect(res.status).toBe(201)
    expect(GroupLabel.strict().parse(res.body)).toEqual(groupLabel(res.body.id, 'bug', '#FF0000', { description: 'Broken', description_html: 'Broken' }))
  })

  it('answers 409 for a name its group or an ancestor already has, 400 for a bad color, 403 below Reporter, 404 to outsiders', async () => {
    expect(await post(alice, top.id, { name: 'bug', color: '#000' })).toEqual([409, { message: 'Label already exists' }])
    expect(await post(alice, sub.id, { name: 'bug', color: '#000' })).toEqual([409, { message: 'Label already exists' }])
    expect(await post(alice, sub.id, { name: 'x', color: 'nope' })).toEqual([400, { message: { color: ['must be a valid color code'] } }])
    expect(await post(alice, sub.id, { name: 'x' })).toEqual([400, { message: '400 (Bad request) "color" not given' }])
    expect(await post(guest, top.id, { name: 'x', color: '#000' })).toEqual([403, { message: '403 Forbidden' }])
    expect(await post(outsider, top.id, { name: 'x', color: '#000' })).toEqual([404, { message: '404 Group Not Found' }])
  })

  it('lists its own and its ancestors\' labels, descendants\' on request, project labels with only_group_labels=false', async () => {
    const bug = (await alice.api.get(`/groups/${top.id}/labels/bug`)).body
    const ui = (await alice.api.post(`/groups/${sub.id}/labels`, { name: 'ui', color: '#00ff00' })).body
    const local = (await alice.api.post(`/projects/${project.id}/labels`, { name: 'local', color: '#0000ff' })).body
    const names = async (id: number, query: Record<string, string> = {}) => (await alice.api.get(`/groups/${id}/labels`, { query })).body.map((l: any) => l.name)
    expect(await names(sub.id)).toEqual(['bug', 'ui'])
    expect(await names(sub.id, { include_ancestor_groups: 'false' })).toEqual(['ui'])
    expect(await names(top.id)).toEqual(['bug'])
    expect(await names(top.id, { include_descendant_groups: 'true' })).toEqual(['bug', 'ui'])
    expect(await names(top.id, { include_descendant_groups: 'true', only_group_labels: 'false' })).toEqual(['bug', 'local', 'ui'])
    expect(await names(sub.id, { search: 'u' })).toEqual(['bug', 'ui'])
    expect(await names(sub.id, { search: 'brok' })).toEqual(['bug'])
    const res = await alice.api.get(`/groups/${sub.id}/labels`)
    expect([res.status, res.headers.get('x-total')]).toEqual([200, '2'])
    expect(res.body.map((l: any) => GroupLabel.strict().parse(l))).toEqual([bug, ui])
    expect(local.is_project_label).toBe(true)
  })

  it('reads one by id or name, an ancestor\'s too, and answers 404 for another group\'s', async () => {
    const bug = (await alice.api.get(`/groups/${top.id}/labels/bug`)).body
    expect((await alice.api.get(`/groups/${sub.id}/labels/${bug.id}`)).body).toEqual(bug)
    expect((await alice.api.get(`/groups/${sub.id}/labels/bug`, { query: { include_ancestor_groups: 'false' } })).body).toEqual({ message: '404 Label Not Found' })
    expect((await alice.api.get(`/groups/${top.id}/labels/ui`)).body).toEqual({ message: '404 Label Not Found' })
  })

  it('edits by id, by name in the path or in the body, and only its own labels', async () => {
    const edited = await alice.api.put(`/groups/${sub.id}/labels/ui`, { new_name: 'frontend', color: '#123456', description: 'Screens' })
    expect([edited.status, edited.body.name, edited.body.color, edited.body.description]).toEqual([200, 'frontend', '#123456', 'Screens'])
    const byBody = await alice.api.put(`/groups/${sub.id}/labels`, { name: 'frontend', description: 'UI' })
    expect([byBody.status, byBody.body.description]).toEqual([200, 'UI'])
    expect((await alice.api.put(`/groups/${sub.id}/labels/bug`, { color: '#000' })).body).toEqual({ message: '404 Label Not Found' })
    expect((await alice.api.put(`/groups/${sub.id}/labels/frontend`, {})).body)
      .toEqual({ error: 'new_name, color, description, archived are missing, at least one parameter must be provided' })
    expect((await alice.api.put(`/groups/${sub.id}/labels`, { color: '#000' })).body)
      .toEqual({ error: 'label_id, name are missing, exactly one parameter must be provided' })
    expect((await alice.api.put(`/groups/${sub.id}/labels/frontend`, { new_name: 'bad,name' })).body).toEqual({ message: { title: ['is invalid'] } })
  })

  it('subscribes and unsubscribes (201, then 304 when nothing changes)', async () => {
    const on = await alice.api.post(`/groups/${sub.id}/labels/frontend/subscribe`)
    expect([on.status, on.body.subscribed]).toEqual([201, true])
    expect((await alice.api.post(`/groups/${sub.id}/labels/frontend/subscribe`)).status).toBe(304)
    expect((await alice.api.get(`/groups/${sub.id}/labels/frontend`)).body.subscribed).toBe(true)
    const off = await alice.api.post(`/groups/${sub.id}/labels/frontend/unsubscribe`)
    expect([off.status, off.body.subscribed]).toEqual([201, false])
  })
})

describe('group labels in projects', () => {
  it('lists ancestor group labels with is_project_label false (unless include_ancestor_groups=false)', async () => {
    const list = (await alice.api.get(`/projects/${project.id}/labels`)).body
    expect(list.map((l: any) => [l.name, l.is_project_label, l.priority])).toEqual([['bug', false, null], ['frontend', false, null], ['local', true, null]])
    expect(list.map((l: any) => Label.strict().parse(l)).length).toBe(3)
    const own = (await alice.api.get(`/projects/${project.id}/labels`, { query: { include_ancestor_groups: 'false' } })).body
    expect(own.map((l: any) => l.name)).toEqual(['local'])
    expect((await alice.api.get(`/projects/${project.id}/labels/bug`)).body.is_project_label).toBe(false)
  })

  it('gives issues the group label by name, filters by it, and counts per project and per group', async () => {
    const issue = await createIssue(alice.api, project.id, { title: 'crash', labels: 'bug,local' })
    expect(issue.labels).toEqual(['bug', 'local'])
    expect((await alice.api.get(`/projects/${project.id}/labels`, { query: { search: 'bug' } })).body.map((l: any) => l.name)).toEqual(['bug'])
    const filtered = await alice.api.get(`/projects/${project.id}/issues`, { query: { labels: 'bug' } })
    expect([filtered.body.map((i: any) => i.iid), filtered.headers.get('x-total')]).toEqual([[issue.iid], '1'])
    const other = await createProject(alice.api, { name: 'other', namespace_id: top.id })
    await createIssue(alice.api, other.id, { title: 'also', labels: 'bug' })
    expect((await alice.api.get(`/projects/${project.id}/labels/bug`)).body).toMatchObject({ open_issues_count: 1 })
    expect((await alice.api.get(`/groups/${top.id}/labels/bug`)).body).toMatchObject({ open_issues_count: 2 })
    expect((await alice.api.get(`/groups/${top.id}/issues`, { query: { labels: 'bug' } })).body.length).toBe(2)
  })

  it('counts only the issues the caller may see: none of a private project\'s for outsiders, confidential ones for Reporters', async () => {
    const open = await createGroup(alice.api, { name: 'Open', path: 'open-labels', visibility: 'public' })
    expectStatus(await alice.api.post(`/groups/${open.id}/labels`, { name: 'triage', color: '#00ff00' }), 201)
    const shown = await createProject(alice.api, { name: 'shown', namespace_id: open.id, visibility: 'public' })
    const hidden = await createProject(alice.api, { name: 'hidden', namespace_id: open.id, visibility: 'private' })
    await createIssue(alice.api, shown.id, { title: 'seen', labels: 'triage' })
    await createIssue(alice.api, shown.id, { title: 'secret', labels: 'triage', confidential: true })
    await createIssue(alice.api, hidden.id, { title: 'inside', labels: 'triage' })
    const read = async (who: TestUser) => (await who.api.get(`/groups/${open.id}/labels/triage`)).body.open_issues_count
    expect([await read(alice), await read(outsider)]).toEqual([3, 1])
    // GitLab's group labels API authenticates every request (before { authenticate! }), a public group's too.
    expect((await api(server).get(`/groups/${open.id}/labels/triage`)).status).toBe(401)
    expectStatus(await alice.api.post(`/projects/${shown.id}/members`, { user_id: outsider.id, access_level: 20 }), 201)
    expect(await read(outsider)).toBe(2)
  })

  it('creates no project label that an ancestor group already has (409), and only its own on the fly', async () => {
    expect((await alice.api.post(`/projects/${project.id}/labels`, { name: 'bug', color: '#000' })).body).toEqual({ message: 'Label already exists' })
    const issue = await createIssue(alice.api, project.id, { title: 'new', labels: 'frontend,fresh' })
    expect(issue.labels).toEqual(['fresh', 'frontend'])
    expect((await alice.api.get(`/projects/${project.id}/labels/fresh`)).body.is_project_label).toBe(true)
    expect((await alice.api.get(`/groups/${sub.id}/labels/fresh`)).body).toEqual({ message: '404 Label Not Found' })
  })

  it('counts an issue once in a filtered list when it holds a project label and a group label of that name', async () => {
    expectStatus(await alice.api.post(`/groups/${top.id}/labels`, { name: 'twice', color: '#FF0000' }), 201)
    expectStatus(await alice.api.post(`/projects/${project.id}/labels`, { name: 'once', color: '#FF0000' }), 201)
    const issue = await createIssue(alice.api, project.id, { title: 'both', labels: 'twice,once' })
    expectStatus(await alice.api.put(`/projects/${project.id}/labels/once`, { new_name: 'twice' }), 200)
    const res = await alice.api.get(`/projects/${project.id}/issues`, { query: { labels: 'twice' } })
    expect([res.body.map((i: any) => i.iid), res.headers.get('x-total')]).toEqual([[issue.iid], '1'])
  })

  it('names a group label in webhook payloads as a GroupLabel with its group_id', async () => {
    expectStatus(await api(server, server.rootToken).put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
    const rx = await startReceiver()
    try {
      expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url: `${rx.url}/hook`, push_events: false, issues_events: true }), 201)
      await createIssue(alice.api, project.id, { title: 'hooked', labels: 'bug,local' })
      const [got] = await rx.waitFor(1)
      const bug = (await alice.api.get(`/groups/${top.id}/labels/bug`)).body
      expect(got.body.labels.map((l: any) => [l.title, l.type, l.project_id, l.group_id])).toEqual([['bug', 'GroupLabel', null, top.id], ['local', 'ProjectLabel', project.id, null]])
      expect(got.body.labels[0].id).toBe(bug.id)
    } finally {
      await deliveriesIdle(server.app)
      await rx.close()
    }
  })

  it('deletes a group label (204) and takes it off its issues; a project cannot delete it', async () => {
    expect((await alice.api.del(`/projects/${project.id}/labels/frontend`)).status).toBe(404)
    expect((await alice.api.del(`/groups/${sub.id}/labels`, { query: { name: 'frontend' } })).status).toBe(204)
    expect((await alice.api.get(`/projects/${project.id}/issues`, { query: { search: 'new' } })).body.map((i: any) => i.labels)).toEqual([['fresh']])
    expect((await alice.api.del(`/groups/${sub.id}/labels/frontend`)).body).toEqual({ message: '404 Label Not Found' })
  })
})

async function post(who: TestUser, groupId: number, body: Record<string, unknown>) {
  const res = await who.api.post(`/groups/${groupId}/labels`, body)
  return [res.status, res.body]
}
