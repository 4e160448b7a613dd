// Memberships end on their expiry date (GitLab's RemoveExpiredMembersWorker), and the access they gave ends with them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeExpiredMembers, scheduleMembershipExpiry } from '../../../src/server/services/projects/members.js'
import { createGroup, createProject, createUser, expectStatus, movableClock, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { until } from '../../helpers/wait.js'

const clock = movableClock('2024-03-01T10:00:00.000Z')
let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
})
afterAll(() => server.close())

const memberIds = async (path: string) => (await alice.api.get(path)).body.map((m: { id: number }) => m.id)

describe('membership expiry', () => {
  it('keeps access until the expiry date, then removes the membership and the access with it', async () => {
    const project = await createProject(alice.api, { name: 'timed', visibility: 'private' })
    expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30, expires_at: '2024-03-02' }), 201)
    expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: carol.id, access_level: 30, expires_at: '2024-03-03' }), 201)
    expect(removeExpiredMembers(server.app)).toBe(0)
    expectStatus(await bob.api.get(`/projects/${project.id}`), 200)

    clock.set('2024-03-02T00:30:00.000Z')
    expect(removeExpiredMembers(server.app)).toBe(1)
    expectStatus(await bob.api.get(`/projects/${project.id}`), 404)
    expectStatus(await carol.api.get(`/projects/${project.id}`), 200)
    expect(await memberIds(`/projects/${project.id}/members`)).toEqual([alice.id, carol.id])
  })

  it('ends access through a group membership to the group and its projects', async () => {
    clock.set('2024-04-01T10:00:00.000Z')
    expect(removeExpiredMembers(server.app)).toBe(1) // carol's, from the test before
    const group = await createGroup(alice.api, { name: 'Crew', path: 'crew', visibility: 'private' })
    const project = await createProject(alice.api, { name: 'inside', namespace_id: group.id, visibility: 'private' })
    expectStatus(await alice.api.post(`/groups/${group.id}/members`, { user_id: bob.id, access_level: 20, expires_at: '2024-04-05' }), 201)
    expectStatus(await bob.api.get(`/projects/${project.id}`), 200)
    clock.set('2024-04-05T09:00:00.000Z')
    expect(removeExpiredMembers(server.app)).toBe(1)
    expectStatus(await bob.api.get(`/projects/${project.id}`), 404)
    expectStatus(await bob.api.get(`/groups/${group.id}`), 404)
  })

  it('runs on its own schedule while the server listens', async () => {
    clock.set('2024-05-01T10:00:00.000Z')
    const project = await createProject(alice.api, { name: 'scheduled', visibility: 'private' })
    expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30, expires_at: '2024-05-02' }), 201)
    clock.set('2024-05-02T10:00:00.000Z')
    const stop = scheduleMembershipExpiry(server.app, 10)
    try {
      await until('the scheduled sweep to remove bob', async () => (await bob.api.get(`/projects/${project.id}`)).status !== 200)
      expectStatus(await bob.api.get(`/projects/${project.id}`), 404)
    } finally {
      stop()
    }
  })
})
