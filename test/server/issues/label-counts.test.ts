// Label issue counts count only the issues the caller may see: confidential ones for reporters and up, their author and assignees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { createIssue } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let owner: TestUser
let reporter: TestUser
let guest: TestUser
let assignee: TestUser
let outsider: TestUser
let project: any

beforeAll(async () => {
  server = await startTestServer()
  owner = await createUser(server, 'owner')
  reporter = await createUser(server, 'reporter')
  guest = await createUser(server, 'guest')
  assignee = await createUser(server, 'assignee')
  outsider = await createUser(server, 'outsider')
  project = await createProject(owner.api, { name: 'demo', visibility: 'public' })
  expectStatus(await owner.api.post(`/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 }), 201)
  expectStatus(await owner.api.post(`/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 }), 201)
  expectStatus(await owner.api.post(`/projects/${project.id}/labels`, { name: 'bug', color: '#ff0000' }), 201)
  await createIssue(owner.api, project.id, { title: 'public', labels: 'bug' })
  await createIssue(owner.api, project.id, { title: 'secret', labels: 'bug', confidential: true })
  const closed = await createIssue(owner.api, project.id, { title: 'closed secret', labels: 'bug', confidential: true, assignee_ids: [assignee.id] })
  expectStatus(await owner.api.put(`/projects/${project.id}/issues/${closed.iid}`, { state_event: 'close' }), 200)
  await createIssue(guest.api, project.id, { title: "the guest's secret", labels: 'bug', confidential: true })
})
afterAll(() => server.close())

const counts = async (as: Api) => {
  const one = expectStatus(await as.get(`/projects/${project.id}/labels/bug`), 200).body
  const list = expectStatus(await as.get(`/projects/${project.id}/labels`, { query: { with_counts: true } }), 200).body
  expect(list).toEqual([one])
  return [one.open_issues_count, one.closed_issues_count, one.open_merge_requests_count]
}

describe('label issue counts', () => {
  it('count every issue for reporters and up', async () => {
    expect(await counts(owner.api)).toEqual([3, 1, 0])
    expect(await counts(reporter.api)).toEqual([3, 1, 0])
    expect(await counts(api(server, server.rootToken))).toEqual([3, 1, 0])
  })

  it('count confidential issues only for their author and assignees below reporter', async () => {
    expect(await counts(guest.api)).toEqual([2, 0, 0])
    expect(await counts(assignee.api)).toEqual([1, 1, 0])
  })

  it('leave confidential issues out for everyone else', async () => {
    expect(await counts(outsider.api)).toEqual([1, 0, 0])
  })
})
