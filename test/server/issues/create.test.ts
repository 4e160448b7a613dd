// POST /projects/:id/issues and GET /projects/:id/issues/:issue_iid: exact bodies, iids, privileged fields, confidential reads, bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Issue, UserAgentDetail } from '../../../src/contract/entities/issues.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath, noTime, userBasic } from '../../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
let project: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
})
afterAll(() => server.close())

describe('creating an issue', () => {
  it('answers 201 with the whole issue, subscribed and _links included', async () => {
    const res = await alice.api.post(`/projects/${project.id}/issues`, {
      title: 'Broken build', description: 'It fails', labels: 'bug,ci', assignee_ids: [bob.id], due_date: '2024-02-01',
    })
    expect(res.status).toBe(201)
    const self = `${server.api}/projects/${project.id}/issues/1`
    expect(Issue.strict().parse(res.body)).toEqual({
      id: res.body.id, iid: 1, project_id: project.id, title: 'Broken build', description: 'It fails', state: 'opened',
      created_at: NOW, updated_at: NOW, closed_at: null, closed_by: null, labels: ['bug', 'ci'], milestone: null,
      assignees: [userBasic(server, bob)], author: userBasic(server, alice), assignee: userBasic(server, bob),
      user_notes_count: 0, merge_requests_count: 0, upvotes: 0, downvotes: 0, due_date: '2024-02-01', confidential: false,
      discussion_locked: false, moved_to_id: null, web_url: `${server.url}/alice/demo/-/issues/1`, time_stats: noTime,
      subscribed: true,
      _links: { self, notes: `${self}/notes`, award_emoji: `${self}/award_emoji`, project: `${server.api}/projects/${project.id}`, closed_as_duplicate_of: null },
    })
    expect((await alice.api.get(issuePath(project.id, 1))).body).toEqual(res.body)
  })

  it('creates the labels it names that do not exist yet', async () => {
    const labels = expectStatus(await alice.api.get(`/projects/${project.id}/labels`), 200).body
    expect(labels.map((l: any) => [l.name, l.color, l.open_issues_count])).toEqual([['bug', '#6699cc', 1], ['ci', '#6699cc', 1]])
  })

  it('numbers issues 1, 2, 3 per project and counts them as open on the project', async () => {
    const other = await createProject(alice.api, { name: 'other' })
    expect((await createIssue(alice.api, project.id, { title: 'Second' })).iid).toBe(2)
    expect((await createIssue(alice.api, other.id, { title: 'First elsewhere' })).iid).toBe(1)
    expect((await alice.api.get(`/projects/${project.id}`)).body.open_issues_count).toBe(2)
  })

  it('lets a non-member create an issue in a public project, dropping labels, assignees and milestone', async () => {
    const issue = await createIssue(carol.api, project.id, { title: 'From outside', labels: 'bug', assignee_ids: [alice.id] })
    expect([issue.author.username, issue.labels, issue.assignees]).toEqual(['carol', [], []])
  })

  it('takes iid and created_at from the owner, and ignores them from a developer', async () => {
    const owned = await createIssue(alice.api, project.id, { title: 'Imported', iid: 50, created_at: '2020-05-06T07:08:09Z' })
    expect([owned.iid, owned.created_at, owned.updated_at]).toEqual([50, '2020-05-06T07:08:09.000Z', '2020-05-06T07:08:09.000Z'])
    const dev = await createIssue(bob.api, project.id, { title: 'Not imported', iid: 70, created_at: '2020-05-06T07:08:09Z' })
    // The explicit iid raised the counter: the next one follows it.
    expect([dev.iid, dev.created_at]).toEqual([51, NOW])
  })

  it('answers 400 when an explicit iid is taken, and writes nothing', async () => {
    const res = await alice.api.post(`/projects/${project.id}/issues`, { title: 'Clash', iid: 1 })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { iid: ['has already been taken'] } })
    expect((await alice.api.get(`/projects/${project.id}/issues`, { query: { search: 'Clash' } })).body).toEqual([])
  })

  it('ignores a milestone of another project and assignees who cannot see a private project', async () => {
    const priv = await createProject(alice.api, { name: 'private-one' })
    const foreign = expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1' }), 201).body
    const issue = await createIssue(alice.api, priv.id, { title: 'Secret', milestone_id: foreign.id, assignee_ids: [carol.id, 9999, alice.id] })
    expect([issue.milestone, issue.assignees.map((u: any) => u.username)]).toEqual([null, ['alice']])
  })

  it('answers 400 naming a missing title, a blank one, a bad due date or a bad flag', async () => {
    const post = (body: unknown) => alice.api.post(`/projects/${project.id}/issues`, body)
    expect((await post({})).body).toEqual({ message: '400 (Bad request) "title" not given' })
    expect((await post({ title: '  ' })).body).toEqual({ message: { title: ["can't be blank"] } })
    expect((await post({ title: 'x', due_date: '2024-02-30' })).body).toEqual({ message: { due_date: ['is invalid'] } })
    expect((await post({ title: 'x', due_date: 'tomorrow' })).status).toBe(400)
    expect((await post({ title: 'x', confidential: 'maybe' })).body).toEqual({ message: { confidential: ['is invalid'] } })
    expect((await post({ title: 'x'.repeat(256) })).body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } })
  })

  it('answers 404 for merge_request_to_resolve_discussions_of: no merge request exists yet', async () => {
    const res = await alice.api.post(`/projects/${project.id}/issues`, { title: 'x', merge_request_to_resolve_discussions_of: 1 })
    expect([res.status, res.body]).toEqual([404, { message: '404 Merge Request Not Found' }])
  })

  it('answers 401 without credentials and 404 for a project the caller cannot see', async () => {
    expect((await api(server).post(`/projects/${project.id}/issues`, { title: 'x' })).body).toEqual({ message: '401 Unauthorized' })
    const priv = await createProject(alice.api, { name: 'hidden' })
    const res = await carol.api.post(`/projects/${priv.id}/issues`, { title: 'x' })
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})

describe('reading an issue', () => {
  it('answers 404 Issue Not Found for an unknown iid, and for an iid of another project', async () => {
    const other = await createProject(alice.api, { name: 'third' })
    expect((await alice.api.get(issuePath(other.id, 2))).body).toEqual({ message: '404 Issue Not Found' })
    expect((await alice.api.get(issuePath(project.id, 999))).status).toBe(404)
  })

  it('shows confidential issues to reporters and up, the author and assignees only', async () => {
    const dave = await createUser(server, 'dave')
    const secret = await createIssue(carol.api, project.id, { title: 'Security hole', confidential: true })
    expect(secret.confidential).toBe(true)
    const assigned = await createIssue(alice.api, project.id, { title: 'Also secret', confidential: true, assignee_ids: [dave.id] })
    for (const [who, iid, status] of [[alice, secret.iid, 200], [bob, secret.iid, 200], [carol, secret.iid, 200], [dave, secret.iid, 404], [dave, assigned.iid, 200]] as const) {
      expect((await who.api.get(issuePath(project.id, iid))).status).toBe(status)
    }
    const seen = async (who: TestUser) => (await who.api.get(`/projects/${project.id}/issues`, { query: { confidential: true } })).body.map((i: any) => i.iid)
    expect(await seen(dave)).toEqual([assigned.iid])
    expect(await seen(bob)).toEqual([assigned.iid, secret.iid])
    expect((await dave.api.get('/issues', { query: { scope: 'all', confidential: true } })).body.map((i: any) => i.iid)).toEqual([assigned.iid])
  })
})

describe('user_agent_detail', () => {
  it('gives administrators the User-Agent and address that created the issue', async () => {
    const issue = expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'UA' }, { headers: { 'User-Agent': 'python-gitlab/3.12.0' } }), 201).body
    const res = await api(server, server.rootToken).get(issuePath(project.id, issue.iid, '/user_agent_detail'))
    expect(res.status).toBe(200)
    expect(UserAgentDetail.strict().parse(res.body)).toEqual({ user_agent: 'python-gitlab/3.12.0', ip_address: '127.0.0.1', spamfilter_submitted: false })
  })

  it('answers 403 to everyone else, the owner included', async () => {
    const res = await alice.api.get(issuePath(project.id, 1, '/user_agent_detail'))
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
  })
})
