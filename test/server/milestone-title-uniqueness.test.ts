// A milestone title is unique one level across, as GitLab's Milestone#uniqueness_of_title: a project's milestone may not
// take a title its group's milestones have, nor a group's one its projects' milestones have; farther levels may.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGroup, createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

const TAKEN = { message: { title: ['already being used for another group or project milestone.'] } }

describe('milestone titles across a group and its projects', () => {
  it('refuses a title of the next level up or down (400), on create and on rename, and allows farther levels', async () => {
    const top = await createGroup(alice.api, { name: 'Top', path: 'top' })
    const sub = await createGroup(alice.api, { name: 'Sub', path: 'sub', parent_id: top.id })
    const project = await createProject(alice.api, { name: 'app', namespace_id: sub.id })
    expectStatus(await alice.api.post(`/groups/${sub.id}/milestones`, { title: 'v1' }), 201)
    expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v2' }), 201)

    const clash = await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1' })
    expect([clash.status, clash.body]).toEqual([400, TAKEN])
    const down = await alice.api.post(`/groups/${sub.id}/milestones`, { title: 'v2' })
    expect([down.status, down.body]).toEqual([400, TAKEN])
    const other = expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v3' }), 201).body
    const renamed = await alice.api.put(`/projects/${project.id}/milestones/${other.id}`, { title: 'v1' })
    expect([renamed.status, renamed.body]).toEqual([400, TAKEN])

    // The top group is two levels from the project: GitLab checks only the project's own group.
    expectStatus(await alice.api.post(`/groups/${top.id}/milestones`, { title: 'v2' }), 201)
    expect((await alice.api.get(`/projects/${project.id}/milestones`)).body.map((m: any) => m.title).sort()).toEqual(['v2', 'v3'])
  })
})
