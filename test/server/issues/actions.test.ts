// Move, subscribe/unsubscribe, todo, todos list and mark_as_done, participants and closed_by.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Issue, Todo } from '../../../src/contract/entities/issues.js'
import { UserBasic } from '../../../src/contract/entities/users.js'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath, userBasic } from '../../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
let source: any
let target: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
  source = await createProject(alice.api, { name: 'source', visibility: 'public' })
  target = await createProject(alice.api, { name: 'target' })
  expectStatus(await alice.api.post(`/projects/${source.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
})
afterAll(() => server.close())

describe('moving an issue', () => {
  it('recreates it in the target with labels and milestone matched by name, notes along, and closes the old one', async () => {
    expectStatus(await alice.api.post(`/projects/${target.id}/labels`, { name: 'bug', color: '#ff0000' }), 201)
    const m1 = expectStatus(await alice.api.post(`/projects/${source.id}/milestones`, { title: 'v1' }), 201).body
    const m2 = expectStatus(await alice.api.post(`/projects/${target.id}/milestones`, { title: 'v1' }), 201).body
    await createIssue(alice.api, target.id, { title: 'Occupies iid 1' })
    const old = await createIssue(alice.api, source.id, { title: 'Wanderer', labels: 'bug,source-only', milestone_id: m1.id, assignee_ids: [bob.id] })
    expectStatus(await bob.api.post(issuePath(source.id, old.iid, '/notes'), { body: 'I was here' }), 201)
    const res = await alice.api.post(issuePath(source.id, old.iid, '/move'), { to_project_id: target.id })
    expect(res.status).toBe(201)
    const moved = Issue.strict().parse(res.body)
    expect(moved).toMatchObject({
      iid: 2, project_id: target.id, title: 'Wanderer', labels: ['bug'], state: 'opened', user_notes_count: 1,
      assignees: [userBasic(server, bob)], web_url: `${server.url}/alice/target/-/issues/2`,
    })
    expect(moved.milestone?.id).toBe(m2.id)
    const notes = (await alice.api.get(issuePath(target.id, 2, '/notes'), { query: { sort: 'asc' } })).body.map((n: any) => [n.author.username, n.body, n.system])
    expect(notes).toEqual([['bob', 'I was here', false], ['alice', `moved from alice/source#${old.iid}`, true]])
    const after = (await alice.api.get(issuePath(source.id, old.iid))).body
    expect([after.state, after.closed_by?.username, after.moved_to_id]).toEqual(['closed', 'alice', moved.id])
    const oldNotes = (await alice.api.get(issuePath(source.id, old.iid, '/notes'), { query: { sort: 'asc' } })).body.filter((n: any) => n.system).map((n: any) => n.body)
    expect(oldNotes).toEqual(['moved to alice/target#2', 'closed'])
  })

  it('answers 400 to the same project, to a caller without permission, and for an issue already moved', async () => {
    const issue = await createIssue(alice.api, source.id, { title: 'Stay' })
    const same = await alice.api.post(issuePath(source.id, issue.iid, '/move'), { to_project_id: source.id })
    expect([same.status, same.body]).toEqual([400, { message: 'Cannot move issue to project it originates from!' }])
    const denied = await carol.api.post(issuePath(source.id, issue.iid, '/move'), { to_project_id: (await createProject(carol.api, { name: 'carols' })).id })
    expect([denied.status, denied.body]).toEqual([400, { message: 'Cannot move issue due to insufficient permissions!' }])
    const again = await alice.api.post(issuePath(source.id, 1, '/move'), { to_project_id: target.id })
    expect([again.status, again.body]).toEqual([400, { message: 'Cannot move issue due to insufficient permissions!' }])
    expect((await alice.api.get(issuePath(source.id, issue.iid))).body.state).toBe('opened')
  })

  it('answers 404 for a target project that does not exist or cannot be seen, and 400 without to_project_id', async () => {
    const issue = await createIssue(alice.api, source.id, { title: 'Nowhere' })
    expect((await alice.api.post(issuePath(source.id, issue.iid, '/move'), { to_project_id: 9999 })).body).toEqual({ message: '404 Project Not Found' })
    expect((await bob.api.post(issuePath(source.id, issue.iid, '/move'), { to_project_id: target.id })).status).toBe(404)
    expect((await alice.api.post(issuePath(source.id, issue.iid, '/move'), {})).body).toEqual({ message: '400 (Bad request) "to_project_id" not given' })
  })
})

describe('subscriptions', () => {
  it('subscribes the author by default; unsubscribe then subscribe flip it, repeats answer 304', async () => {
    const issue = await createIssue(alice.api, source.id, { title: 'Watched' })
    expect((await alice.api.post(issuePath(source.id, issue.iid, '/subscribe'))).status).toBe(304)
    const off = await alice.api.post(issuePath(source.id, issue.iid, '/unsubscribe'))
    expect(off.status).toBe(201)
    expect([Issue.strict().parse(off.body).subscribed, off.body._links]).toEqual([false, undefined])
    const again = await alice.api.post(issuePath(source.id, issue.iid, '/unsubscribe'))
    expect([again.status, again.text]).toEqual([304, ''])
    expect((await alice.api.get(issuePath(source.id, issue.iid))).body.subscribed).toBe(false)
    const on = await alice.api.post(issuePath(source.id, issue.iid, '/subscribe'))
    expect([on.status, on.body.subscribed, typeof on.body._links.self]).toEqual([201, true, 'string'])
  })

  it('subscribes commenters by default, and not bystanders', async () => {
    const issue = await createIssue(alice.api, source.id, { title: 'Chatty' })
    expect((await carol.api.get(issuePath(source.id, issue.iid))).body.subscribed).toBe(false)
    expectStatus(await carol.api.post(issuePath(source.id, issue.iid, '/notes'), { body: 'me too' }), 201)
    expect((await carol.api.get(issuePath(source.id, issue.iid))).body.subscribed).toBe(true)
  })
})

describe('todos', () => {
  it('creates a marked todo, answers 304 while it is pending, lists it and marks it done', async () => {
    const issue = await createIssue(alice.api, source.id, { title: 'Remember me' })
    const res = await bob.api.post(issuePath(source.id, issue.iid, '/todo'))
    expect(res.status).toBe(201)
    expect(Todo.strict().parse(res.body)).toMatchObject({
      project: { id: source.id, name: 'source', name_with_namespace: 'User alice / source', path: 'source', path_with_namespace: 'alice/source' },
      author: userBasic(server, bob), action_name: 'marked', target_type: 'Issue', target_url: issue.web_url, body: 'Remember me',
      state: 'pending', created_at: NOW,
    })
    expect([res.body.target.iid, res.body.target.subscribed, res.body.target._links]).toEqual([issue.iid, false, undefined])
    expect((await bob.api.post(issuePath(source.id, issue.iid, '/todo'))).status).toBe(304)
    const pending = (await bob.api.get('/todos', { query: { action: 'marked' } })).body
    expect(pending).toEqual([res.body])
    const done = await bob.api.post(`/todos/${res.body.id}/mark_as_done`)
    expect([done.status, done.body.state]).toEqual([201, 'done'])
    expect((await bob.api.get('/todos', { query: { action: 'marked' } })).body).toEqual([])
    expect((await bob.api.get('/todos', { query: { state: 'done' } })).body.map((t: any) => t.id)).toEqual([res.body.id])
    expect((await bob.api.post(issuePath(source.id, issue.iid, '/todo'))).status).toBe(201)
  })

  it("answers 404 for someone else's todo", async () => {
    const issue = await createIssue(alice.api, source.id, { title: 'Private todo' })
    const todo = expectStatus(await alice.api.post(issuePath(source.id, issue.iid, '/todo')), 201).body
    expect((await bob.api.post(`/todos/${todo.id}/mark_as_done`)).body).toEqual({ message: '404 Todo Not Found' })
  })
})

describe('participants and closed_by', () => {
  it('lists author, assignees and commenters once each', async () => {
    const issue = await createIssue(alice.api, source.id, { title: 'Crowd', assignee_ids: [bob.id] })
    expectStatus(await carol.api.post(issuePath(source.id, issue.iid, '/notes'), { body: 'hi' }), 201)
    expectStatus(await alice.api.post(issuePath(source.id, issue.iid, '/notes'), { body: 'hello' }), 201)
    const res = await carol.api.get(issuePath(source.id, issue.iid, '/participants'))
    expect(res.status).toBe(200)
    expect(res.body.map((u: any) => UserBasic.strict().parse(u))).toEqual([userBasic(server, alice), userBasic(server, bob), userBasic(server, carol)])
  })

  it('answers an empty closed_by list while no merge request exists', async () => {
    const res = await alice.api.get(issuePath(source.id, 1, '/closed_by'))
    expect([res.status, res.body, res.headers.get('x-total')]).toEqual([200, [], '0'])
    expect((await alice.api.get(issuePath(source.id, 999, '/closed_by'))).status).toBe(404)
  })
})
