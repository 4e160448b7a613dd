// The closing pattern's references: `#N`, `path#N` and issue URLs of this server (`…/-/issues/N`, `…/issues/N`),
// in closes_issues and in the issues a merge closes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './fixtures.js'

let server: TestServer
let alice: TestUser
let demo: any
let other: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
  demo = await createProject(alice.api, { name: 'demo' })
  other = await createProject(alice.api, { name: 'other' })
  await seedMaster(alice.api, demo.id)
  for (const title of ['one', 'two', 'three', 'four']) expectStatus(await alice.api.post(`/projects/${demo.id}/issues`, { title }), 201)
  expectStatus(await alice.api.post(`/projects/${other.id}/issues`, { title: 'elsewhere' }), 201)
})
afterAll(() => server.close())

const issue = async (projectId: number, iid: number) => expectStatus(await alice.api.get(`/projects/${projectId}/issues/${iid}`), 200).body
/** closes_issues answers the list form of an issue: without `_links` and `subscribed`. */
async function listed(projectId: number, iid: number) {
  const { _links, subscribed, ...rest } = await issue(projectId, iid)
  return rest
}

describe('closing references', () => {
  it('recognises issue URLs with and without /-/, beside #N, and merging closes what they name', async () => {
    await branchWith(alice.api, demo.id, 'urls', 'u.txt', 'u\n', `Add u\n\nFixes ${server.url}/alice/other/issues/1`)
    const description = [
      `Closes ${server.url}/alice/demo/-/issues/1, ${server.url}/alice/demo/issues/2 and #3`,
      `See ${server.url}/alice/demo/-/issues/4; closes ${server.url}/alice/demo/-/merge_requests/1`,
      `Resolves ${server.url}/nobody/nowhere/-/issues/1`,
    ].join('\n')
    const mr = await openMergeRequest(alice.api, demo.id, { source_branch: 'urls', title: 'URLs', description })
    const closes = expectStatus(await alice.api.get(mrPath(demo.id, mr.iid, '/closes_issues')), 200).body
    expect(closes).toEqual([await listed(demo.id, 1), await listed(demo.id, 2), await listed(demo.id, 3), await listed(other.id, 1)])
    expectStatus(await alice.api.put(mrPath(demo.id, mr.iid, '/merge')), 200)
    const states = []
    for (const [p, iid] of [[demo.id, 1], [demo.id, 2], [demo.id, 3], [demo.id, 4], [other.id, 1]]) states.push((await issue(p, iid)).state)
    expect(states).toEqual(['closed', 'closed', 'closed', 'opened', 'closed'])
  })

  it("names a project of the same namespace by its path alone, and another namespace's only by its full path", async () => {
    expectStatus(await alice.api.put(`/projects/${other.id}/issues/1`, { state_event: 'reopen' }), 200)
    const bob = await createUser(server, 'bob')
    const bobs = await createProject(bob.api, { name: 'other', visibility: 'public' })
    expectStatus(await bob.api.post(`/projects/${bobs.id}/issues`, { title: "bob's" }), 201)
    await branchWith(alice.api, demo.id, 'short', 's.txt', 's\n', 'Add s')
    const mr = await openMergeRequest(alice.api, demo.id, { source_branch: 'short', title: 'Short', description: 'Closes other#1 and bob/other#1, fixes nobody#1' })
    const closes = expectStatus(await alice.api.get(mrPath(demo.id, mr.iid, '/closes_issues')), 200).body
    expect(closes.map((i: any) => [i.project_id, i.iid])).toEqual([[other.id, 1], [bobs.id, 1]])
  })
})
