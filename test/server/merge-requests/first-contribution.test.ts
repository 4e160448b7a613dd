// first_contribution (GitLab 17): true while the author has no merged merge request in the project; a merged one keeps
// whether it was the author's first merged one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './fixtures.js'

let server: TestServer
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
})
afterAll(() => server.close())

describe('first_contribution', () => {
  it('is true until the author has a merge request merged, and stays true on that first merged one', async () => {
    const project = await createProject(alice.api, { name: 'firsts', visibility: 'public' })
    expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
    await seedMaster(alice.api, project.id)
    await branchWith(bob.api, project.id, 'one', 'one.txt')
    await branchWith(bob.api, project.id, 'two', 'two.txt')
    const first = await openMergeRequest(bob.api, project.id, { source_branch: 'one', title: 'One' })
    const second = await openMergeRequest(bob.api, project.id, { source_branch: 'two', title: 'Two' })
    const flag = async (iid: number) => expectStatus(await alice.api.get(mrPath(project.id, iid)), 200).body.first_contribution
    expect([await flag(first.iid), await flag(second.iid)]).toEqual([true, true])

    expectStatus(await alice.api.put(mrPath(project.id, first.iid, '/merge')), 200)
    expect([await flag(first.iid), await flag(second.iid)]).toEqual([true, false])
    expectStatus(await alice.api.put(mrPath(project.id, second.iid, '/merge')), 200)
    expect([await flag(first.iid), await flag(second.iid)]).toEqual([true, false])

    await branchWith(alice.api, project.id, 'three', 'three.txt')
    const alices = await openMergeRequest(alice.api, project.id, { source_branch: 'three', title: 'Three' })
    expect(await flag(alices.iid)).toBe(true)
  })
})
