// Mentioned users are participants (GitLab's Participable): `@user` in the description or a user note, outside code,
// of someone who can read the project; a mentioned participant is subscribed unless they unsubscribed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from '../merge-requests/fixtures.js'

let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
let dave: TestUser
let erin: TestUser
let project: any

beforeAll(async () => {
  server = await startTestServer()
  ;[alice, bob, carol, dave, erin] = await Promise.all(['alice', 'bob', 'carol', 'dave', 'erin'].map((n) => createUser(server, n)))
  project = await createProject(alice.api, { name: 'mentions', visibility: 'private' })
  for (const u of [bob, carol, erin]) expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: u.id, access_level: 30 }), 201)
})
afterAll(() => server.close())

const usernames = (body: any[]) => body.map((u) => u.username)

describe('mentions make participants', () => {
  it('adds members mentioned in the description and notes, not in code, not outsiders', async () => {
    const issue = await createIssue(alice.api, project.id, { title: 'Mentions', description: 'cc @carol and @dave (no access), `@erin` in code' })
    expectStatus(await bob.api.post(issuePath(project.id, issue.iid, '/notes'), { body: '```\n@erin\n```\nthanks @nobody, @bob and @carol' }), 201)
    const res = expectStatus(await alice.api.get(issuePath(project.id, issue.iid, '/participants')), 200)
    expect(usernames(res.body)).toEqual(['alice', 'bob', 'carol'])
    const subscribed = async (u: TestUser) => expectStatus(await u.api.get(issuePath(project.id, issue.iid)), 200).body.subscribed
    expect([await subscribed(carol), await subscribed(erin)]).toEqual([true, false])
    expectStatus(await carol.api.post(issuePath(project.id, issue.iid, '/unsubscribe')), 201)
    expect(await subscribed(carol)).toBe(false)
  })

  it('does the same for merge requests', async () => {
    await seedMaster(alice.api, project.id)
    await branchWith(alice.api, project.id, 'topic', 't.txt')
    const mr = await openMergeRequest(alice.api, project.id, { source_branch: 'topic', title: 'Topic', description: 'review please @erin' })
    const res = expectStatus(await alice.api.get(mrPath(project.id, mr.iid, '/participants')), 200)
    expect(usernames(res.body)).toEqual(['alice', 'erin'])
  })
})
