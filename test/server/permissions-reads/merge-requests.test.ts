// Guests of a private project read none of its merge requests, whatever the path: GitLab lets Reporters and up read
// merge requests where membership is what lets a user in (a private project's are a members' feature at Reporter).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, createUser, expectStatus, request, type TestUser } from '../../helpers/api.js'
import { createIssue } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { branchWith, openMergeRequest, seedMaster } from '../merge-requests/fixtures.js'
import { signIn } from '../web/fixture.js'

let server: TestServer
let guest: TestUser
let reporter: TestUser
let group: any
let project: any
let mr: any

const titles = (body: any[]) => body.map((x) => x.title)

beforeAll(async () => {
  server = await startTestServer()
  const root = api(server, server.rootToken)
  guest = await createUser(server, 'gary')
  reporter = await createUser(server, 'rita')
  group = await createGroup(root, { name: 'Team', path: 'team', visibility: 'private' })
  expectStatus(await root.post(`/groups/${group.id}/members`, { user_id: guest.id, access_level: 10 }), 201)
  expectStatus(await root.post(`/groups/${group.id}/members`, { user_id: reporter.id, access_level: 20 }), 201)
  project = await createProject(root, { name: 'Secret', path: 'secret', namespace_id: group.id, visibility: 'private' })
  await seedMaster(root, project.id)
  await createIssue(root, project.id, { title: 'Plain issue' })
  await branchWith(root, project.id, 'feature', 'plan.txt')
  const label = expectStatus(await root.post(`/projects/${project.id}/labels`, { name: 'plan', color: '#ff0000' }), 201).body
  expectStatus(await root.post(`/groups/${group.id}/labels`, { name: 'team-plan', color: '#00ff00' }), 201)
  mr = await openMergeRequest(root, project.id, {
    source_branch: 'feature', title: 'Secret plan', description: 'Closes #1, cc @gary', labels: `${label.name},team-plan`, assignee_id: guest.id,
  })
  expectStatus(await root.post(`/projects/${project.id}/merge_requests/${mr.iid}/notes`, { body: 'secret remark' }), 201)
  await server.app.tasks.idle()
})

afterAll(async () => {
  await server?.close()
})

describe('a guest of a private project', () => {
  it('is refused the single merge request and the project list (403, as GitLab authorizes read_merge_request)', async () => {
    expect(await guest.api.get(`/projects/${project.id}/merge_requests/${mr.iid}`)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
    expect(await guest.api.get(`/projects/${project.id}/merge_requests`)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
    // One that does not exist is not found, as GitLab finds the merge request before it authorizes.
    expect((await guest.api.get(`/projects/${project.id}/merge_requests/999`)).status).toBe(404)
  })

  it('finds none in the instance and group lists', async () => {
    for (const path of ['/merge_requests', `/groups/${group.id}/merge_requests`]) {
      const reply = expectStatus(await guest.api.get(path, { query: { scope: 'all' } }), 200)
      expect({ path, titles: titles(reply.body) }).toEqual({ path, titles: [] })
      expect(reply.headers.get('x-total')).toBe('0')
    }
  })

  it('finds none through search at every level, nor their notes', async () => {
    const query = { scope: 'merge_requests', search: 'Secret' }
    for (const path of ['/search', `/groups/${group.id}/search`, `/projects/${project.id}/search`]) {
      expect({ path, titles: titles(expectStatus(await guest.api.get(path, { query }), 200).body) }).toEqual({ path, titles: [] })
    }
    const notes = expectStatus(await guest.api.get(`/projects/${project.id}/search`, { query: { scope: 'notes', search: 'remark' } }), 200)
    expect(notes.body).toEqual([])
  })

  it('sees no merge request closing the issue, nor counts one', async () => {
    const issue = expectStatus(await guest.api.get(`/projects/${project.id}/issues/1`), 200).body
    expect(issue.merge_requests_count).toBe(0)
    expect(expectStatus(await guest.api.get(`/projects/${project.id}/issues/1/closed_by`), 200).body).toEqual([])
    expect(expectStatus(await guest.api.get(`/projects/${project.id}/issues/1/related_merge_requests`), 200).body).toEqual([])
    // The reporter's list first: a text remembered for the reporter's count must not answer the guest's list.
    const seen = expectStatus(await reporter.api.get(`/projects/${project.id}/issues`), 200).body
    expect(seen.map((i: any) => i.merge_requests_count)).toEqual([1])
    const listed = expectStatus(await guest.api.get(`/projects/${project.id}/issues`), 200).body
    expect(listed.map((i: any) => i.merge_requests_count)).toEqual([0])
  })

  it('counts no open merge request on a project or group label', async () => {
    const labels = expectStatus(await guest.api.get(`/projects/${project.id}/labels`, { query: { with_counts: true, include_ancestor_groups: false } }), 200).body
    expect(labels.map((l: any) => [l.name, l.open_merge_requests_count])).toEqual([['plan', 0]])
    const groupLabels = expectStatus(await guest.api.get(`/groups/${group.id}/labels`, { query: { with_counts: true } }), 200).body
    expect(groupLabels.map((l: any) => [l.name, l.open_merge_requests_count])).toEqual([['team-plan', 0]])
  })

  it('has no merge request event in the feed nor a todo about one', async () => {
    const events = expectStatus(await guest.api.get(`/projects/${project.id}/events`), 200).body
    expect(events.filter((e: any) => e.target_type === 'MergeRequest' || e.note?.noteable_type === 'MergeRequest')).toEqual([])
    expect(expectStatus(await guest.api.get('/todos'), 200).body).toEqual([])
  })

  it('is shown neither the list nor a merge request on the web pages (404, as GitLab answers what one may not read)', async () => {
    const headers = { Cookie: await signIn(server, guest) }
    const list = await request(server, 'GET', '/team/secret/-/merge_requests', { headers })
    expect([list.status, list.text.includes('Secret plan')]).toEqual([404, false])
    expect((await request(server, 'GET', `/team/secret/-/merge_requests/${mr.iid}`, { headers })).status).toBe(404)
    const reporterList = await request(server, 'GET', '/team/secret/-/merge_requests', { headers: { Cookie: await signIn(server, reporter) } })
    expect(reporterList.text.includes('Secret plan')).toBe(true)
  })
})

describe('a reporter of the same project', () => {
  it('reads the merge request everywhere the guest could not', async () => {
    for (const path of ['/merge_requests', `/groups/${group.id}/merge_requests`, `/projects/${project.id}/merge_requests`]) {
      expect(titles(expectStatus(await reporter.api.get(path, { query: { scope: 'all' } }), 200).body)).toEqual(['Secret plan'])
    }
    expect(titles(expectStatus(await reporter.api.get('/search', { query: { scope: 'merge_requests', search: 'Secret' } }), 200).body)).toEqual(['Secret plan'])
    expect(expectStatus(await reporter.api.get(`/projects/${project.id}/issues/1`), 200).body.merge_requests_count).toBe(1)
    expect(titles(expectStatus(await reporter.api.get(`/projects/${project.id}/issues/1/closed_by`), 200).body)).toEqual(['Secret plan'])
    const labels = expectStatus(await reporter.api.get(`/projects/${project.id}/labels`, { query: { with_counts: true, include_ancestor_groups: false } }), 200).body
    expect(labels.map((l: any) => l.open_merge_requests_count)).toEqual([1])
    const groupLabels = expectStatus(await reporter.api.get(`/groups/${group.id}/labels`, { query: { with_counts: true } }), 200).body
    expect(groupLabels.map((l: any) => l.open_merge_requests_count)).toEqual([1])
  })
})
