// GET …/approvals, POST …/approve and …/unapprove, PUT …/reset_approvals: GitLab FOSS's approvals, without rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { userBasic } from '../../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './fixtures.js'

let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
let project: any
let mr: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  await seedMaster(alice.api, project.id)
  await branchWith(alice.api, project.id, 'feature', 'a.txt')
  mr = await openMergeRequest(alice.api, project.id, { source_branch: 'feature', title: 'Feature' })
})
afterAll(() => server.close())

describe('approvals', () => {
  it('starts unapproved; Developers may approve, others not (401)', async () => {
    expect((await bob.api.get(mrPath(project.id, 1, '/approvals'))).body)
      .toEqual({ user_has_approved: false, user_can_approve: true, approved: false, approved_by: [] })
    expect((await carol.api.get(mrPath(project.id, 1, '/approvals'))).body.user_can_approve).toBe(false)
    const refused = await carol.api.post(mrPath(project.id, 1, '/approve'))
    expect([refused.status, refused.body]).toEqual([401, { message: '401 Unauthorized' }])
  })

  it('approves once (409 on a stale sha, 401 the second time), unapproves (404 when not approved), resets', async () => {
    const stale = await bob.api.post(mrPath(project.id, 1, '/approve'), { sha: '0'.repeat(40) })
    expect([stale.status, stale.body]).toEqual([409, { message: `SHA does not match HEAD of source branch: ${mr.sha}` }])
    const ok = await bob.api.post(mrPath(project.id, 1, '/approve'), { sha: mr.sha })
    expect([ok.status, ok.body]).toEqual([201, { user_has_approved: true, user_can_approve: false, approved: true, approved_by: [{ user: userBasic(server, bob) }] }])
    expect((await bob.api.post(mrPath(project.id, 1, '/approve'))).status).toBe(401)
    const notes = (await alice.api.get(mrPath(project.id, 1, '/notes'))).body
    expect(notes.map((n: any) => [n.body, n.author.username])).toEqual([['approved this merge request', 'bob']])
    const none = await alice.api.post(mrPath(project.id, 1, '/unapprove'))
    expect([none.status, none.body]).toEqual([404, { message: '404 Not Found' }])
    expect(expectStatus(await bob.api.post(mrPath(project.id, 1, '/unapprove')), 201).body.approved).toBe(false)
    expectStatus(await alice.api.post(mrPath(project.id, 1, '/approve')), 201)
    expect((await bob.api.put(mrPath(project.id, 1, '/reset_approvals'))).status).toBe(401)
    expect((await alice.api.put(mrPath(project.id, 1, '/reset_approvals'))).status).toBe(202)
    expect((await alice.api.get(mrPath(project.id, 1, '/approvals'))).body.approved_by).toEqual([])
  })
})
