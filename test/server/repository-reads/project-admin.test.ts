// POST /projects/:id/housekeeping, PUT /projects/:id/transfer and GET /projects/:id/groups.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let dev: TestUser
let root: ReturnType<typeof api>

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  dev = await createUser(server, 'dev', { name: 'Dev' })
})
afterAll(() => server.close())

describe('POST /projects/:id/housekeeping', () => {
  it('packs loose objects at once for a Maintainer, and answers 403 to a Developer', async () => {
    const p = await createProject(alice.api, { name: 'hk' })
    await alice.api.post(`/projects/${p.id}/members`, { user_id: dev.id, access_level: 30 })
    await commit(alice.api, p.id, { branch: 'main', commit_message: 'a', actions: [create('a.txt', 'a\n')] })
    const objects = join(server.dataDir, 'repositories', `${p.id}.git`, 'objects')
    expect(readdirSync(objects).some((d) => /^[0-9a-f]{2}$/.test(d))).toBe(true)
    const refused = await dev.api.post(`/projects/${p.id}/housekeeping`)
    expect([refused.status, refused.text]).toEqual([403, '{"message":"403 Forbidden"}'])
    const res = await alice.api.post(`/projects/${p.id}/housekeeping`)
    expect([res.status, res.text]).toEqual([201, 'null'])
    expect(readdirSync(objects).filter((d) => /^[0-9a-f]{2}$/.test(d))).toEqual([])
    expect(expectStatus(await alice.api.get(`/projects/${p.id}/repository/files/a.txt/raw`, { query: { ref: 'main' } }), 200).text).toBe('a\n')
  })
})

describe('PUT /projects/:id/transfer and GET /projects/:id/groups', () => {
  it('moves a project into a group, lowering its visibility to the group\'s, its repository untouched', async () => {
    const group = await createGroup(root, { name: 'Team', path: 'team', visibility: 'internal' })
    await root.post(`/groups/${group.id}/members`, { user_id: alice.id, access_level: 50 })
    const sub = await createGroup(root, { name: 'Sub', path: 'sub', parent_id: group.id, visibility: 'internal' })
    const p = await createProject(alice.api, { name: 'moving', visibility: 'public' })
    await commit(alice.api, p.id, { branch: 'main', commit_message: 'a', actions: [create('a.txt', 'a\n')] })
    expect(expectStatus(await alice.api.get(`/projects/${p.id}/groups`), 200).body).toEqual([])
    const res = expectStatus(await alice.api.put(`/projects/${p.id}/transfer`, { namespace: 'team/sub' }), 200)
    expect(res.body).toMatchObject({ id: p.id, path_with_namespace: 'team/sub/moving', visibility: 'internal', namespace: { id: sub.id, full_path: 'team/sub' } })
    expect(existsSync(join(server.dataDir, 'repositories', `${p.id}.git`))).toBe(true)
    expect(expectStatus(await alice.api.get('/projects/team%2Fsub%2Fmoving/repository/files/a.txt/raw', { query: { ref: 'main' } }), 200).text).toBe('a\n')
    const groups = expectStatus(await alice.api.get(`/projects/${p.id}/groups`), 200).body
    expect(groups).toEqual([
      { id: sub.id, web_url: `${server.url}/groups/team/sub`, name: 'Sub', avatar_url: null, full_name: 'Team / Sub', full_path: 'team/sub' },
      { id: group.id, web_url: `${server.url}/groups/team`, name: 'Team', avatar_url: null, full_name: 'Team', full_path: 'team' },
    ])
    expect(expectStatus(await alice.api.get(`/projects/${p.id}/groups`, { query: { search: 'tea' } }), 200).body.map((g: any) => g.id)).toEqual([group.id])
  })

  it.each([
    ['its own namespace', 'alice', 400, 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}'],
    ['a namespace the owner may not create in', 'dev', 404, '404 Namespace Not Found'],
    ['a missing namespace', 'nope/nothing', 404, '404 Namespace Not Found'],
  ])('refuses %s', async (_what, namespace, status, message) => {
    const p = await createProject(alice.api, { name: `stay-${namespace.replace(/\W/g, '')}` })
    const res = await alice.api.put(`/projects/${p.id}/transfer`, { namespace })
    expect([res.status, res.body]).toEqual([status, { message }])
  })

  it('refuses a group where a project has the path, a group without rights, and a non-owner', async () => {
    const other = await createGroup(root, { name: 'Other', path: 'other' })
    await root.post(`/groups/${other.id}/members`, { user_id: alice.id, access_level: 20 })
    const p = await createProject(alice.api, { name: 'clash' })
    const noRights = await alice.api.put(`/projects/${p.id}/transfer`, { namespace: other.id })
    expect([noRights.status, noRights.body]).toEqual([400, { message: 'Failed to transfer project {:new_namespace=>["You don\'t have permission to transfer this project."]}' }])
    await createProject(root, { name: 'clash', namespace_id: other.id })
    await root.put(`/groups/${other.id}/members/${alice.id}`, { access_level: 40 })
    const clash = await alice.api.put(`/projects/${p.id}/transfer`, { namespace: 'other' })
    expect([clash.status, clash.body]).toEqual([400, { message: 'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}' }])
    await alice.api.post(`/projects/${p.id}/members`, { user_id: dev.id, access_level: 40 })
    const notOwner = await dev.api.put(`/projects/${p.id}/transfer`, { namespace: 'dev' })
    expect([notOwner.status, notOwner.text]).toEqual([403, '{"message":"403 Forbidden"}'])
  })
})
