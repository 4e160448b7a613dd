// Commits reaching the default branch close the issues their messages name (GitLab's closing pattern), with the
// "closed via commit" note and a state event naming the commit; other branches and issues the author may not edit stay open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { createIssue, issuePath, userBasic } from '../helpers/issues.js'
import { commit, create } from '../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'
import { seedMaster } from './merge-requests/fixtures.js'

const AT = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let demo: any
let bobs: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(AT) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  demo = await createProject(alice.api, { name: 'demo' })
  bobs = await createProject(bob.api, { name: 'elsewhere', visibility: 'public' })
  await seedMaster(alice.api, demo.id)
})
afterAll(() => server.close())

const state = async (projectId: number, iid: number, as = alice) => expectStatus(await as.api.get(issuePath(projectId, iid)), 200).body.state

describe('closing issues by commits', () => {
  it('closes what a commit on the default branch names, noting the commit', async () => {
    const one = await createIssue(alice.api, demo.id, { title: 'One' })
    const two = await createIssue(alice.api, demo.id, { title: 'Two' })
    const foreign = await createIssue(bob.api, bobs.id, { title: 'Not yours' })
    const c = await commit(alice.api, demo.id, { commit_message: `Fix it\n\nCloses #${one.iid}, fixes bob/elsewhere#${foreign.iid}`, actions: [create('a.txt', 'a\n')] })
    await server.app.tasks.idle()
    expect([await state(demo.id, one.iid), await state(demo.id, two.iid), await state(bobs.id, foreign.iid, bob)]).toEqual(['closed', 'opened', 'opened'])
    const notes = expectStatus(await alice.api.get(issuePath(demo.id, one.iid, '/notes')), 200).body
    expect(notes.map((n: any) => [n.body, n.system])).toEqual([[`closed via commit ${c.id}`, true]])
    const events = expectStatus(await alice.api.get(issuePath(demo.id, one.iid, '/resource_state_events')), 200).body
    expect(events).toEqual([{
      id: 1, user: userBasic(server, alice), created_at: AT, resource_type: 'Issue', resource_id: one.id,
      source_commit: c.id, source_merge_request_id: null, state: 'closed',
    }])
  })

  it('leaves issues named on other branches open', async () => {
    const three = await createIssue(alice.api, demo.id, { title: 'Three' })
    await commit(alice.api, demo.id, { branch: 'topic', start_branch: 'master', commit_message: `Closes #${three.iid}`, actions: [create('b.txt', 'b\n')] })
    await server.app.tasks.idle()
    expect(await state(demo.id, three.iid)).toBe('opened')
    expect(expectStatus(await alice.api.get(issuePath(demo.id, three.iid, '/resource_state_events')), 200).body).toEqual([])
  })
})
