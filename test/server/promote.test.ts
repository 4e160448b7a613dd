// Promoting project labels and milestones to the project's group, merging the same-named ones of sibling projects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stmt } from '../../src/server/store/db.js'
import { GroupLabel } from '../../src/contract/endpoints/group-labels.js'
import { createGroup, createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { createIssue } from '../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let dev: TestUser
let group: any
let one: any
let two: any
let personal: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  dev = await createUser(server, 'dev')
  group = await createGroup(alice.api, { name: 'Team', path: 'team' })
  one = await createProject(alice.api, { name: 'one', namespace_id: group.id })
  two = await createProject(alice.api, { name: 'two', namespace_id: group.id })
  personal = await createProject(alice.api, { name: 'personal' })
  expectStatus(await alice.api.post(`/groups/${group.id}/members`, { user_id: dev.id, access_level: 30 }), 201)
})
afterAll(() => server.close())

describe('label promotion', () => {
  it('makes a group label of the project label, merging the siblings\' same-named labels with their issues and subscribers', async () => {
    const mine = (await alice.api.post(`/projects/${one.id}/labels`, { name: 'bug', color: '#FF0000', description: 'Broken' })).body
    const theirs = (await alice.api.post(`/projects/${two.id}/labels`, { name: 'bug', color: '#00FF00' })).body
    const a = await createIssue(alice.api, one.id, { title: 'a', labels: 'bug' })
    const b = await createIssue(alice.api, two.id, { title: 'b', labels: 'bug' })
    expectStatus(await dev.api.post(`/projects/${two.id}/labels/bug/subscribe`), 201)
    const res = await alice.api.put(`/projects/${one.id}/labels/bug/promote`)
    expect(res.status).toBe(200)
    expect(GroupLabel.strict().parse(res.body)).toEqual({
      id: res.body.id, name: 'bug', color: '#FF0000', text_color: '#FFFFFF', description: 'Broken', description_html: 'Broken',
      open_issues_count: 2, closed_issues_count: 0, open_merge_requests_count: 0, subscribed: false,
    })
    expect([mine.id, theirs.id]).not.toContain(res.body.id)
    expect((await alice.api.get(`/groups/${group.id}/labels`)).body).toEqual([res.body])
    for (const p of [one, two]) {
      expect((await alice.api.get(`/projects/${p.id}/labels`)).body.map((l: any) => [l.id, l.is_project_label])).toEqual([[res.body.id, false]])
    }
    expect((await alice.api.get(`/projects/${one.id}/issues/${a.iid}`)).body.labels).toEqual(['bug'])
    expect((await alice.api.get(`/projects/${two.id}/issues`, { query: { labels: 'bug' } })).body.map((i: any) => i.iid)).toEqual([b.iid])
    expect((await dev.api.get(`/groups/${group.id}/labels/bug`)).body.subscribed).toBe(true)
  })

  it('promotes by id too, and merges a same-named label the group already has', async () => {
    // The project label comes first: a group label may then take the same name, a project label may not.
    const local = (await alice.api.post(`/projects/${one.id}/labels`, { name: 'ops', color: '#111111' })).body
    const viaProject = await createIssue(alice.api, one.id, { title: 'ops a', labels: 'ops' })
    const existing = (await alice.api.post(`/groups/${group.id}/labels`, { name: 'ops', color: '#000000' })).body
    const viaGroup = await createIssue(alice.api, two.id, { title: 'ops b', labels: 'ops' })
    expect((await alice.api.get(`/projects/${two.id}/labels/ops`)).body.id).toBe(existing.id)
    const res = await alice.api.put(`/projects/${one.id}/labels/${local.id}/promote`)
    expect([res.status, res.body.name, res.body.color, res.body.open_issues_count]).toEqual([200, 'ops', '#111111', 2])
    expect([local.id, existing.id]).not.toContain(res.body.id)
    expect((await alice.api.get(`/groups/${group.id}/labels`)).body.map((l: any) => [l.name, l.id])).toEqual([['bug', expect.any(Number)], ['ops', res.body.id]])
    expect((await alice.api.get(`/projects/${one.id}/issues/${viaProject.iid}`)).body.labels).toEqual(['ops'])
    expect((await alice.api.get(`/projects/${two.id}/issues/${viaGroup.iid}`)).body.labels).toEqual(['ops'])
  })

  it('answers 400 for a project in a user namespace, 403 below group Maintainer, 404 for a group label or an unknown one', async () => {
    expectStatus(await alice.api.post(`/projects/${personal.id}/labels`, { name: 'solo', color: '#123456' }), 201)
    const solo = await alice.api.put(`/projects/${personal.id}/labels/solo/promote`)
    expect([solo.status, solo.body]).toEqual([400, { message: 'Failed to promote project label to group label' }])
    expectStatus(await alice.api.post(`/projects/${one.id}/labels`, { name: 'dev-made', color: '#123456' }), 201)
    const denied = await dev.api.put(`/projects/${one.id}/labels/dev-made/promote`)
    expect([denied.status, denied.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await alice.api.put(`/projects/${one.id}/labels/ops/promote`)).body).toEqual({ message: '404 Label Not Found' })
    expect((await alice.api.put(`/projects/${one.id}/labels/nope/promote`)).body).toEqual({ message: '404 Label Not Found' })
    expect((await alice.api.get(`/projects/${one.id}/labels/dev-made`)).body.is_project_label).toBe(true)
  })
})

describe('milestone promotion', () => {
  it('answers 200 with the body 200, and merges the siblings\' same-titled milestones with their issues', async () => {
    const mine = (await alice.api.post(`/projects/${one.id}/milestones`, { title: '1.0', description: 'Ship', due_date: '2024-05-01' })).body
    const theirs = (await alice.api.post(`/projects/${two.id}/milestones`, { title: '1.0' })).body
    const a = await createIssue(alice.api, one.id, { title: 'planned a', milestone_id: mine.id })
    const b = await createIssue(alice.api, two.id, { title: 'planned b', milestone_id: theirs.id })
    const res = await dev.api.post(`/projects/${one.id}/milestones/${mine.id}/promote`)
    expect([res.status, res.text]).toEqual([200, '200'])
    const promoted = (await alice.api.get(`/groups/${group.id}/milestones`)).body
    expect(promoted).toEqual([{
      id: promoted[0].id, iid: 1, group_id: group.id, title: '1.0', description: 'Ship', state: 'active', created_at: NOW, updated_at: NOW,
      due_date: '2024-05-01', start_date: null, expired: false, web_url: `${server.url}/groups/team/-/milestones/1`,
    }])
    expect((await alice.api.get(`/projects/${one.id}/milestones`)).body).toEqual([])
    expect((await alice.api.get(`/projects/${two.id}/milestones/${theirs.id}`)).body).toEqual({ message: '404 Milestone Not Found' })
    expect((await alice.api.get(`/projects/${one.id}/issues/${a.iid}`)).body.milestone.id).toBe(promoted[0].id)
    expect((await alice.api.get(`/projects/${two.id}/issues/${b.iid}`)).body.milestone.id).toBe(promoted[0].id)
  })

  it('answers 400 when the group already has the title, 403 for a user namespace or a Guest, 404 for an unknown milestone', async () => {
    // The API no longer makes a project milestone named like one of its group's (uniqueness_of_title), so this is data
    // from before that rule: renamed underneath, through the store's tracked statements.
    const again = (await alice.api.post(`/projects/${two.id}/milestones`, { title: '1.0-old' })).body
    stmt(server.app.db, 'UPDATE milestones SET title = ? WHERE id = ?').run('1.0', again.id)
    const dup = await alice.api.post(`/projects/${two.id}/milestones/${again.id}/promote`)
    expect([dup.status, dup.body]).toEqual([400, { message: 'Promotion failed - Title already being used for another group or project milestone.' }])
    expect((await alice.api.get(`/projects/${two.id}/milestones/${again.id}`)).body.title).toBe('1.0')
    const solo = (await alice.api.post(`/projects/${personal.id}/milestones`, { title: 'solo' })).body
    const denied = await alice.api.post(`/projects/${personal.id}/milestones/${solo.id}/promote`)
    expect([denied.status, denied.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await alice.api.post(`/projects/${one.id}/milestones/999/promote`)).body).toEqual({ message: '404 Milestone Not Found' })
  })
})
