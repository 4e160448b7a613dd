// Who sees which events (project visibility, confidential issues, code access, private profiles, scope=all), the
// filters' edges and bad values, and GET /user/activities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, movableClock, type TestUser } from '../helpers/api.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

const clock = movableClock('2024-03-01T10:00:00.000Z')
let server: TestServer
let alice: TestUser
let bob: TestUser
let guest: TestUser
let pub: any
let secret: any
let confidential: any

const root = () => api(server, server.rootToken)

/** [action_name, target_type, project_id] of a listing, after the background listener is done. */
async function seen(as: ReturnType<typeof api>, path: string, query: Record<string, string> = {}) {
  await server.app.tasks.idle()
  const res = expectStatus(await as.get(path, { query: { sort: 'asc', ...query } }), 200)
  return (res.body as any[]).map((e) => [e.action_name, e.target_type, e.project_id])
}

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  guest = await createUser(server, 'guest')
  pub = await createProject(alice.api, { name: 'Open', visibility: 'public', initialize_with_readme: true })
  clock.set('2024-03-02T10:00:00.000Z')
  confidential = expectStatus(await alice.api.post(`/projects/${pub.id}/issues`, { title: 'Hush', confidential: true }), 201).body
  expectStatus(await alice.api.post(`/projects/${pub.id}/issues/${confidential.iid}/notes`, { body: 'quiet' }), 201)
  secret = await createProject(alice.api, { name: 'Closed', visibility: 'private', initialize_with_readme: true })
  expectStatus(await alice.api.post(`/projects/${secret.id}/members`, { user_id: guest.id, access_level: 10 }), 201)
  clock.set('2024-03-03T10:00:00.000Z')
  expectStatus(await alice.api.post(`/projects/${secret.id}/repository/commits`, {
    branch: 'main', commit_message: 'Secret', actions: [{ action: 'create', file_path: 's', content: 's\n' }],
  }), 201)
  expectStatus(await alice.api.post(`/projects/${secret.id}/issues`, { title: 'Inside' }), 201)
})
afterAll(() => server.close())

describe('visibility', () => {
  it('shows a user all their own events', async () => {
    expect(await seen(alice.api, '/events')).toEqual([
      ['created', null, pub.id], ['opened', 'Issue', pub.id], ['commented on', 'Note', pub.id], ['created', null, secret.id],
      ['pushed to', null, secret.id], ['opened', 'Issue', secret.id],
    ])
  })

  it('shows another user only what they may see of the projects and targets', async () => {
    expect(await seen(bob.api, `/users/${alice.id}/events`)).toEqual([['created', null, pub.id]])
    expect(await seen(api(server), `/users/alice/events`)).toEqual([['created', null, pub.id]])
    // A guest of the private project sees its issues and members, not its code.
    expect(await seen(guest.api, `/users/alice/events`)).toEqual([['created', null, pub.id], ['created', null, secret.id], ['opened', 'Issue', secret.id]])
    expect(await seen(root(), `/users/alice/events`)).toHaveLength(6)
  })

  it('answers 404 for the events of a project the caller cannot see, and hides confidential issues in one they can', async () => {
    const res = await bob.api.get(`/projects/${secret.id}/events`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
    expect(await seen(bob.api, `/projects/${pub.id}/events`)).toEqual([['created', null, pub.id]])
    // As GitLab's EventsFinder, hidden targets are dropped from the page, not from the count.
    expect((await bob.api.get(`/projects/${pub.id}/events`)).headers.get('x-total')).toBe('3')
    expect(await seen(api(server), `/projects/${pub.id}/events`)).toEqual([['created', null, pub.id]])
  })

  it('with scope=all lists the events of every project the caller is a member of', async () => {
    expect(await seen(guest.api, '/events', { scope: 'all' })).toEqual([
      ['created', null, secret.id], ['joined', null, secret.id], ['opened', 'Issue', secret.id],
    ])
    expect(await seen(guest.api, '/events')).toEqual([['joined', null, secret.id]])
    expect(await seen(bob.api, '/events', { scope: 'all' })).toEqual([])
  })

  it('answers 401 to an anonymous caller of GET /events', async () => {
    const res = await api(server).get('/events')
    expect([res.status, res.text]).toEqual([401, '{"message":"401 Unauthorized"}'])
  })

  it('keeps a private profile’s events for the user and administrators', async () => {
    expectStatus(await root().put(`/users/${guest.id}`, { private_profile: true }), 200)
    expect(await seen(alice.api, `/users/${guest.id}/events`)).toEqual([])
    expect(await seen(guest.api, `/users/${guest.id}/events`)).toEqual([['joined', null, secret.id]])
    expect(await seen(root(), `/users/${guest.id}/events`)).toEqual([['joined', null, secret.id]])
    expectStatus(await root().put(`/users/${guest.id}`, { private_profile: false }), 200)
  })

  it('answers 404 User Not Found for an unknown user', async () => {
    for (const ref of ['nobody', '999999']) {
      const res = await alice.api.get(`/users/${ref}/events`)
      expect([res.status, res.body]).toEqual([404, { message: '404 User Not Found' }])
    }
  })
})

describe('filters', () => {
  it('takes before and after as whole days, both exclusive', async () => {
    const days = async (query: Record<string, string>) => {
      await server.app.tasks.idle()
      return (expectStatus(await alice.api.get('/events', { query: { sort: 'asc', ...query } }), 200).body as any[]).map((e) => e.created_at.slice(0, 10))
    }
    expect(await days({ after: '2024-03-01' })).toEqual(['2024-03-02', '2024-03-02', '2024-03-02', '2024-03-03', '2024-03-03'])
    expect(await days({ before: '2024-03-02' })).toEqual(['2024-03-01'])
    expect(await days({ after: '2024-03-01', before: '2024-03-03' })).toEqual(['2024-03-02', '2024-03-02', '2024-03-02'])
    expect(await days({ after: '2024-03-03' })).toEqual([])
  })

  it('filters by action and target type, and sorts newest first by default', async () => {
    expect(await seen(alice.api, '/events', { action: 'created', sort: 'desc' })).toEqual([
      ['opened', 'Issue', secret.id], ['created', null, secret.id], ['opened', 'Issue', pub.id], ['created', null, pub.id],
    ])
    expect(await seen(alice.api, '/events', { target_type: 'issue' })).toEqual([['opened', 'Issue', pub.id], ['opened', 'Issue', secret.id]])
    const byDefault = expectStatus(await alice.api.get('/events'), 200).body as any[]
    expect(byDefault.map((e) => e.id)).toEqual([...byDefault.map((e) => e.id)].sort((a, b) => b - a))
  })

  it('refuses unknown actions, target types, sorts and dates with 400', async () => {
    const cases: [Record<string, string>, unknown][] = [
      [{ action: 'exploded' }, { action: ['does not have a valid value'] }],
      [{ target_type: 'Issue' }, { target_type: ['does not have a valid value'] }],
      [{ sort: 'up' }, { sort: ['does not have a valid value'] }],
      [{ before: '2024-02-30' }, { before: ['is invalid'] }],
      [{ after: 'yesterday' }, { after: ['is invalid'] }],
    ]
    for (const [query, message] of cases) {
      const res = await alice.api.get(`/projects/${pub.id}/events`, { query })
      expect([res.status, res.body]).toEqual([400, { message }])
    }
  })
})

describe('GET /user/activities', () => {
  it('lists the last activity day of users active since `from`, least recent first, private profiles for administrators', async () => {
    await server.app.tasks.idle()
    const all = expectStatus(await alice.api.get('/user/activities', { query: { from: '2024-01-01' } }), 200)
    expect(all.body).toEqual([
      { username: 'guest', last_activity_on: '2024-03-02', last_activity_at: '2024-03-02' },
      { username: 'alice', last_activity_on: '2024-03-03', last_activity_at: '2024-03-03' },
    ])
    expect(expectStatus(await alice.api.get('/user/activities', { query: { from: '2024-03-03' } }), 200).body.map((a: any) => a.username)).toEqual(['alice'])
    expectStatus(await root().put(`/users/${alice.id}`, { private_profile: true }), 200)
    expect(expectStatus(await bob.api.get('/user/activities', { query: { from: '2024-01-01' } }), 200).body.map((a: any) => a.username)).toEqual(['guest'])
    expect(expectStatus(await root().get('/user/activities', { query: { from: '2024-01-01' } }), 200).body.map((a: any) => a.username)).toEqual(['guest', 'alice'])
    expectStatus(await root().put(`/users/${alice.id}`, { private_profile: false }), 200)
  })

  it('defaults `from` to six months back and answers 401 to anonymous callers', async () => {
    clock.set('2024-09-03T10:00:00.000Z')
    expect(expectStatus(await alice.api.get('/user/activities'), 200).body.map((a: any) => a.username)).toEqual(['alice'])
    clock.set('2024-03-03T10:00:00.000Z')
    const res = await api(server).get('/user/activities')
    expect([res.status, res.body]).toEqual([401, { message: '401 Unauthorized' }])
    const bad = await alice.api.get('/user/activities', { query: { from: 'soon' } })
    expect([bad.status, bad.body]).toEqual([400, { message: { from: ['is invalid'] } }])
  })
})

describe('deleted authors', () => {
  it('takes a deleted user’s events with them, ghost migration or hard delete', async () => {
    for (const hard of [false, true]) {
      const dave = await createUser(server, hard ? 'dave-hard' : 'dave')
      expectStatus(await root().post(`/projects/${pub.id}/members`, { user_id: dave.id, access_level: 30 }), 201)
      expectStatus(await dave.api.post(`/projects/${pub.id}/issues`, { title: `By ${dave.username}` }), 201)
      await server.app.tasks.idle()
      expect((await seen(root(), `/users/${dave.id}/events`)).map(([action]) => action)).toEqual(['joined', 'opened'])
      expectStatus(await root().del(`/users/${dave.id}`, { query: { hard_delete: hard } }), 204)
      await server.app.tasks.idle()
      const left = expectStatus(await root().get(`/projects/${pub.id}/events`, { query: { per_page: 100 } }), 200).body as any[]
      expect(left.filter((e) => e.author_id === dave.id)).toEqual([])
    }
  })
})
