// Nothing is more visible than the group that holds it: projects, forks and subgroups, with GitLab's words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let alice: TestUser
let secret: any
let inner: any

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  secret = await createGroup(alice.api, { name: 'Secret', path: 'secret', visibility: 'private' })
  inner = await createGroup(alice.api, { name: 'Inner', path: 'inner', visibility: 'internal' })
})
afterAll(() => server.close())

const setDefaults = async (settings: Record<string, string>) => expectStatus(await root.put('/application/settings', settings), 200)

describe('projects in a group', () => {
  it('refuses a project more visible than its group (400, nothing created)', async () => {
    const res = await alice.api.post('/projects', { name: 'loud', namespace_id: secret.id, visibility: 'public' })
    expect([res.status, res.text]).toEqual([400, '{"message":{"visibility_level":["public is not allowed in a private group."]}}'])
    const internal = await alice.api.post('/projects', { name: 'loud', namespace_id: inner.id, visibility: 'public' })
    expect(internal.body).toEqual({ message: { visibility_level: ['public is not allowed in a internal group.'] } })
    expectStatus(await alice.api.get('/projects/secret%2Floud'), 404)
  })

  it('takes the default level only up to its group when none is asked for', async () => {
    await setDefaults({ default_project_visibility: 'public' })
    try {
      expect((await createProject(alice.api, { name: 'quiet', namespace_id: secret.id })).visibility).toBe('private')
      expect((await createProject(alice.api, { name: 'quiet', namespace_id: inner.id })).visibility).toBe('internal')
      expect((await createProject(alice.api, { name: 'mine' })).visibility).toBe('public')
    } finally {
      await setDefaults({ default_project_visibility: 'private' })
    }
  })

  it('refuses raising an existing project above its group, and keeps it as it was', async () => {
    const p = await createProject(alice.api, { name: 'steady', namespace_id: inner.id, visibility: 'private' })
    const res = await alice.api.put(`/projects/${p.id}`, { visibility: 'public' })
    expect([res.status, res.body]).toEqual([400, { message: { visibility_level: ['public is not allowed in a internal group.'] } }])
    expect((await alice.api.get(`/projects/${p.id}`)).body.visibility).toBe('private')
    expect(expectStatus(await alice.api.put(`/projects/${p.id}`, { visibility: 'internal' }), 200).body.visibility).toBe('internal')
  })

  it('forks into a group at most as visible as the group', async () => {
    const upstream = await createProject(alice.api, { name: 'upstream', visibility: 'public' })
    const fork = expectStatus(await alice.api.post(`/projects/${upstream.id}/fork`, { namespace_id: secret.id }), 201).body
    expect([fork.namespace.full_path, fork.visibility]).toEqual(['secret', 'private'])
  })
})

describe('subgroups', () => {
  it('refuses a subgroup more visible than its parent, in the groups API error form', async () => {
    const res = await alice.api.post('/groups', { name: 'Open', path: 'open', parent_id: secret.id, visibility: 'internal' })
    expect([res.status, res.body]).toEqual([400, { message: 'Failed to save group {:visibility_level=>["internal is not allowed since the parent group has a private visibility."]}' }])
    expectStatus(await alice.api.get('/groups/secret%2Fopen'), 404)
  })

  it('takes the default level only up to its parent when none is asked for', async () => {
    await setDefaults({ default_group_visibility: 'public' })
    try {
      const sub = expectStatus(await alice.api.post('/groups', { name: 'Sub', path: 'sub', parent_id: inner.id }), 201).body
      expect(sub.visibility).toBe('internal')
    } finally {
      await setDefaults({ default_group_visibility: 'private' })
    }
  })
})
