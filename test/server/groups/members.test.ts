// Group members: direct and inherited through parent groups, the last-owner rule, and reach into group projects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Member } from '../../../src/contract/entities/groups.js'
import { createGroup, createProject, createUser, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
let parent: any
let child: any

const levels = (body: { username: string; access_level: number }[]) => body.map((m) => [m.username, m.access_level])

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
  parent = await createGroup(alice.api, { name: 'Parent', path: 'parent' })
  child = await createGroup(alice.api, { name: 'Child', path: 'child', parent_id: parent.id })
})
afterAll(() => server.close())

describe('group members', () => {
  it('adds a member (201) and reads them back', async () => {
    const res = await alice.api.post(`/groups/${parent.id}/members`, { user_id: bob.id, access_level: 20 })
    expect(res.status).toBe(201)
    expect(Member.strict().parse(res.body)).toMatchObject({ username: 'bob', access_level: 20 })
    expect((await alice.api.get(`/groups/${parent.id}/members/${bob.id}`)).body).toEqual(res.body)
    expect(levels((await alice.api.get(`/groups/${parent.id}/members`)).body)).toEqual([['alice', 50], ['bob', 20]])
  })

  it('lets parent members reach the subgroup, listed under /members/all only', async () => {
    expect(levels((await bob.api.get(`/groups/${child.id}/members`)).body)).toEqual([['alice', 50]])
    expect(levels((await bob.api.get(`/groups/${child.id}/members/all`)).body)).toEqual([['alice', 50], ['bob', 20]])
    expect((await bob.api.get(`/groups/${child.id}/members/all/${bob.id}`)).body.access_level).toBe(20)
    expect((await bob.api.get(`/groups/${child.id}/members/${bob.id}`)).body).toEqual({ message: '404 Member Not Found' })
  })

  it('gives inherited members access to private projects of subgroups', async () => {
    const p = await createProject(alice.api, { name: 'Deep', namespace_id: child.id })
    const res = await bob.api.get(`/projects/${p.id}`)
    expect(res.status).toBe(200)
    expect(res.body.permissions).toEqual({ project_access: null, group_access: { access_level: 20, notification_level: 3 } })
    expect((await carol.api.get(`/projects/${p.id}`)).status).toBe(404)
    expect(levels((await alice.api.get(`/projects/${p.id}/members/all`)).body)).toEqual([['alice', 50], ['bob', 20]])
  })

  it('takes the higher level when a user is a member of both parent and subgroup', async () => {
    await alice.api.post(`/groups/${child.id}/members`, { user_id: bob.id, access_level: 40 })
    expect((await bob.api.get(`/groups/${child.id}/members/all/${bob.id}`)).body.access_level).toBe(40)
    // Maintainer of the child may now create a subgroup there, but still not in the parent.
    expect((await bob.api.post('/groups', { name: 'Grandchild', path: 'grandchild', parent_id: child.id })).status).toBe(201)
    expect((await bob.api.post('/groups', { name: 'Sibling', path: 'sibling', parent_id: parent.id })).status).toBe(403)
  })

  it('answers 409 Member already exists and 404 User Not Found', async () => {
    const dup = await alice.api.post(`/groups/${parent.id}/members`, { user_id: bob.id, access_level: 30 })
    expect(dup.status).toBe(409)
    expect(dup.body).toEqual({ message: 'Member already exists' })
    const ghost = await alice.api.post(`/groups/${parent.id}/members`, { user_id: 999999, access_level: 30 })
    expect(ghost.body).toEqual({ message: '404 User Not Found' })
  })

  it('answers 403 to a reporter adding members', async () => {
    const res = await bob.api.post(`/groups/${parent.id}/members`, { user_id: carol.id, access_level: 10 })
    expect(res.status).toBe(403)
    expect((await alice.api.get(`/groups/${parent.id}/members/${carol.id}`)).status).toBe(404)
  })

  it('changes a level with PUT', async () => {
    const res = await alice.api.put(`/groups/${parent.id}/members/${bob.id}`, { access_level: 30 })
    expect(res.status).toBe(200)
    expect((await alice.api.get(`/groups/${parent.id}/members/${bob.id}`)).body.access_level).toBe(30)
  })

  it('refuses to remove or demote the last owner with 403', async () => {
    const del = await alice.api.del(`/groups/${parent.id}/members/${alice.id}`)
    expect(del.status).toBe(403)
    expect(del.text).toBe('{"message":"403 Forbidden - A group must have at least one owner"}')
    const demote = await alice.api.put(`/groups/${parent.id}/members/${alice.id}`, { access_level: 40 })
    expect(demote.body).toEqual({ message: '403 Forbidden - A group must have at least one owner' })
    expect((await alice.api.get(`/groups/${parent.id}/members/${alice.id}`)).body.access_level).toBe(50)
  })

  it('lets an owner leave once another owner exists', async () => {
    await alice.api.post(`/groups/${parent.id}/members`, { user_id: carol.id, access_level: 50 })
    expect((await alice.api.del(`/groups/${parent.id}/members/${alice.id}`)).status).toBe(204)
    expect(levels((await carol.api.get(`/groups/${parent.id}/members`)).body)).toEqual([['bob', 30], ['carol', 50]])
  })

  it('answers 404 Group Not Found for the members of a private group the caller cannot see', async () => {
    const hidden = await createGroup(alice.api, { name: 'Hidden', path: 'hidden' })
    for (const path of [`/groups/${hidden.id}/members`, `/groups/${hidden.id}/members/all`]) {
      const res = await bob.api.get(path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: '404 Group Not Found' })
    }
    expect((await bob.api.post(`/groups/${hidden.id}/members`, { user_id: bob.id, access_level: 50 })).status).toBe(404)
  })
})
