// Token scopes: read_api reads, read_user reads users only, and neither writes (403 insufficient_scope).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const DESCRIPTION = 'The request requires higher privileges than provided by the access token.'
let server: TestServer
let full: TestUser
let project: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  full = await createUser(server, 'alice')
  project = await createProject(full.api, { name: 'Scoped' })
})
afterAll(() => server.close())

async function tokenWith(scopes: string[]) {
  const res = await api(server, server.rootToken).post(`/users/${full.id}/personal_access_tokens`, { name: scopes.join('+'), scopes })
  return api(server, res.body.token)
}

describe('a read_api token', () => {
  it('reads projects and the current user', async () => {
    const t = await tokenWith(['read_api'])
    expect((await t.get(`/projects/${project.id}`)).status).toBe(200)
    expect((await t.get('/projects')).status).toBe(200)
    expect((await t.get('/user')).status).toBe(200)
  })

  it('answers 403 insufficient_scope to every write and changes nothing', async () => {
    const t = await tokenWith(['read_api'])
    const writes: [string, string, unknown][] = [
      ['POST', '/projects', { name: 'Nope' }], ['PUT', `/projects/${project.id}`, { description: 'changed' }],
      ['DELETE', `/projects/${project.id}`, undefined], ['POST', `/projects/${project.id}/star`, undefined],
      ['POST', '/groups', { name: 'g', path: 'g' }],
    ]
    for (const [method, path, json] of writes) {
      const res = await t.request(method, path, json === undefined ? {} : { json })
      expect([method, path, res.status]).toEqual([method, path, 403])
      expect(res.body).toEqual({ error: 'insufficient_scope', error_description: DESCRIPTION, scope: 'api' })
      expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"')
    }
    const back = (await full.api.get(`/projects/${project.id}`)).body
    expect([back.description, back.star_count]).toEqual(['', 0])
    expect((await full.api.get('/projects', { query: { search: 'Nope' } })).body).toEqual([])
  })
})

describe('a read_user token', () => {
  it('reads the current user and users', async () => {
    const t = await tokenWith(['read_user'])
    expect((await t.get('/user')).body.username).toBe('alice')
    expect((await t.get(`/users/${full.id}`)).status).toBe(200)
    expect((await t.get('/users')).status).toBe(200)
  })

  it('answers 403 insufficient_scope to project reads and to writes', async () => {
    const t = await tokenWith(['read_user'])
    const read = await t.get('/projects')
    expect(read.status).toBe(403)
    expect(read.body).toEqual({ error: 'insufficient_scope', error_description: DESCRIPTION, scope: 'api read_api' })
    const write = await t.post('/projects', { name: 'Nope' })
    expect(write.status).toBe(403)
    expect(write.body).toEqual({ error: 'insufficient_scope', error_description: DESCRIPTION, scope: 'api' })
  })
})

describe('a token with only repository scopes', () => {
  it('answers 403 insufficient_scope to API reads', async () => {
    const t = await tokenWith(['read_repository', 'write_repository'])
    const res = await t.get('/user')
    expect(res.status).toBe(403)
    expect(res.body.error).toBe('insufficient_scope')
  })
})

describe('an api token', () => {
  it('reads and writes', async () => {
    const t = await tokenWith(['api'])
    expect((await t.post('/projects', { name: 'Allowed' })).status).toBe(201)
  })
})
