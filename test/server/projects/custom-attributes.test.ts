// Custom attributes: admin-only CRUD on users, groups and projects, and the `custom_attributes[key]=` project filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

describe('custom attributes', () => {
  let server: TestServer
  let root: ReturnType<typeof api>
  let alice: TestUser

  beforeAll(async () => {
    server = await startTestServer()
    root = api(server, server.rootToken)
    alice = await createUser(server, 'alice')
  })
  afterAll(() => server.close())

  it('sets, reads, lists and deletes a project attribute', async () => {
    const p = await createProject(root, { name: 'tagged' })
    expect((await root.put(`/projects/${p.id}/custom_attributes/team`, { value: 'blue' })).body).toEqual({ key: 'team', value: 'blue' })
    expect((await root.put(`/projects/root%2Ftagged/custom_attributes/team`, { value: 'red' })).body).toEqual({ key: 'team', value: 'red' })
    expect((await root.get(`/projects/${p.id}/custom_attributes`)).body).toEqual([{ key: 'team', value: 'red' }])
    expect((await root.get(`/projects/${p.id}/custom_attributes/team`)).body).toEqual({ key: 'team', value: 'red' })
    expect((await root.get(`/projects/${p.id}?with_custom_attributes=true`)).body.custom_attributes).toEqual([{ key: 'team', value: 'red' }])
    expectStatus(await root.del(`/projects/${p.id}/custom_attributes/team`), 204)
    const gone = await root.get(`/projects/${p.id}/custom_attributes/team`)
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Custom Attribute Not Found' }])
  })

  it('filters project lists by attribute for administrators', async () => {
    const a = await createProject(root, { name: 'filter-a' })
    await createProject(root, { name: 'filter-b' })
    expectStatus(await root.put(`/projects/${a.id}/custom_attributes/env`, { value: 'prod' }), 200)
    const list = await root.get('/projects', { query: 'custom_attributes[env]=prod&simple=true' })
    expect(list.body.map((p: { path: string }) => p.path)).toEqual(['filter-a'])
  })

  it('works on users and groups', async () => {
    expect((await root.put(`/users/${alice.id}/custom_attributes/plan`, { value: 'gold' })).body).toEqual({ key: 'plan', value: 'gold' })
    expect((await root.get(`/users/alice/custom_attributes`)).body).toEqual([{ key: 'plan', value: 'gold' }])
    const g = await createGroup(root, { name: 'Attr Group', path: 'attr-group' })
    expect((await root.put(`/groups/${g.id}/custom_attributes/cost`, { value: '42' })).body).toEqual({ key: 'cost', value: '42' })
  })

  it('is refused to non-administrators with 403, and a missing value is 400', async () => {
    const p = await createProject(alice.api, { name: 'mine' })
    const denied = await alice.api.put(`/projects/${p.id}/custom_attributes/x`, { value: 'y' })
    expect([denied.status, denied.body]).toEqual([403, { message: '403 Forbidden' }])
    const missing = await root.put(`/projects/${p.id}/custom_attributes/x`, {})
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "value" not given' }])
  })
})
