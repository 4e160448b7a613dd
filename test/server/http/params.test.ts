// GitLab's parameter rules: query + form + JSON merged; lenient booleans; name[]= arrays; name[key]= hashes; :id as id or path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, createUser, type Api, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

describe('parameter sources', () => {
  it('merges the query string with a JSON body', async () => {
    const res = await alice.api.post('/projects', { name: 'Json And Query' }, { query: { visibility: 'public', description: 'from query' } })
    expect(res.status).toBe(201)
    expect([res.body.visibility, res.body.description]).toEqual(['public', 'from query'])
  })

  it('merges the query string with a form body', async () => {
    const res = await alice.api.request('POST', '/projects', { query: { visibility: 'internal' }, form: { name: 'Form And Query', description: 'from form' } })
    expect(res.status).toBe(201)
    expect([res.body.visibility, res.body.description]).toEqual(['internal', 'from form'])
  })

  it('reads a multipart body', async () => {
    const form = new FormData()
    form.set('name', 'Multipart Made')
    form.set('visibility', 'public')
    const res = await fetch(`${server.api}/projects`, { method: 'POST', headers: { 'PRIVATE-TOKEN': alice.token }, body: form })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ path: 'multipart-made', visibility: 'public' })
  })

  it('lets the body win over the query string, and the path over both', async () => {
    const p = await createProject(alice.api, { name: 'Precedence' })
    const other = await createProject(alice.api, { name: 'Bystander' })
    const res = await alice.api.put(`/projects/${p.id}`, { description: 'body', id: other.id }, { query: { description: 'query', id: String(other.id) } })
    expect(res.status).toBe(200)
    expect([res.body.id, res.body.description]).toEqual([p.id, 'body'])
    expect((await alice.api.get(`/projects/${other.id}`)).body.description).toBe('')
  })

  it('reads a JSON body sent with a charset, or with no Content-Type at all', async () => {
    const withCharset = await alice.api.request('POST', '/projects', { body: '{"name":"Charset Json"}', headers: { 'Content-Type': 'application/json; charset=utf-8' } })
    expect(withCharset.status).toBe(201)
    const bare = await alice.api.request('POST', '/projects', { body: Buffer.from('{"name":"Untyped Json"}') })
    expect(bare.status).toBe(201)
    expect(bare.body.path).toBe('untyped-json')
  })

  it('reads parameters of a DELETE from the query string', async () => {
    const t = await root.post(`/users/${alice.id}/impersonation_tokens`, { name: 'x', scopes: ['api'] })
    const res = await api(server).del('/personal_access_tokens/self', { query: { private_token: t.body.token } })
    expect(res.status).toBe(204)
  })
})

describe('booleans', () => {
  it.each([
    ['True', true], ['true', true], ['1', true], ['t', true], ['yes', true], ['on', true],
    ['False', false], ['false', false], ['0', false], ['f', false], ['no', false], ['off', false],
  ])('reads %s as %s', async (wire, value) => {
    // Names differ by more than letter case, which project names ignore.
    const name = `Bool ${[...wire].map((c) => c.charCodeAt(0)).join('-')}`
    const res = await alice.api.request('POST', '/projects', { form: { name, issues_enabled: wire, wiki_enabled: wire } })
    expect(res.status).toBe(201)
    expect([res.body.issues_enabled, res.body.wiki_enabled]).toEqual([value, value])
  })

  it('reads JSON true/false and 1/0', async () => {
    const res = await alice.api.post('/projects', { name: 'Json Bools', issues_enabled: false, wiki_enabled: 0, lfs_enabled: 1 })
    expect([res.body.issues_enabled, res.body.wiki_enabled, res.body.lfs_enabled]).toEqual([false, false, true])
  })

  it('answers 400 is invalid for anything else', async () => {
    const res = await alice.api.post('/projects', { name: 'Bad Bool', issues_enabled: 'maybe' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { issues_enabled: ['is invalid'] } })
  })

  it('reads booleans in the query string of a list', async () => {
    await createProject(alice.api, { name: 'Archived One', path: 'archived-one' }).then((p) => alice.api.post(`/projects/${p.id}/archive`))
    const res = await alice.api.get('/projects', { query: 'archived=True&simple=1' })
    expect(res.body.map((p: any) => p.path)).toEqual(['archived-one'])
    expect(res.body[0]).not.toHaveProperty('visibility')
  })
})

describe('arrays and hashes', () => {
  it('reads name[]= repeated in a form', async () => {
    const res = await alice.api.request('POST', '/projects', { form: 'name=Form%20Topics&topics[]=b&topics[]=a' })
    expect(res.body.topics).toEqual(['b', 'a'])
  })

  it('reads a JSON array and a comma-separated string', async () => {
    expect((await alice.api.post('/projects', { name: 'Json Topics', topics: ['x', 'y'] })).body.topics).toEqual(['x', 'y'])
    expect((await alice.api.post('/projects', { name: 'Csv Topics', topics: 'p, q' })).body.topics).toEqual(['p', 'q'])
  })

  it('reads name[]= in a query string', async () => {
    const g = await createGroup(alice.api, { name: 'Skip Me', path: 'skip-me' })
    const res = await alice.api.get('/groups', { query: `skip_groups[]=${g.id}&skip_groups[]=999` })
    expect(res.body.map((x: any) => x.id)).not.toContain(g.id)
    expect((await alice.api.get('/groups')).body.map((x: any) => x.id)).toContain(g.id)
  })

  it('reads name[key]=value hashes (custom_attributes, administrators only)', async () => {
    const tagged = await createProject(alice.api, { name: 'Tagged', visibility: 'public' })
    await createProject(alice.api, { name: 'Untagged', visibility: 'public' })
    expect((await root.put(`/projects/${tagged.id}/custom_attributes/team`, { value: 'red' })).status).toBe(200)
    const res = await root.get('/projects', { query: 'custom_attributes[team]=red&with_custom_attributes=true' })
    expect(res.body.map((p: any) => [p.path, p.custom_attributes])).toEqual([['tagged', [{ key: 'team', value: 'red' }]]])
    expect((await root.get('/projects', { query: 'custom_attributes[team]=blue' })).body).toEqual([])
    // For everyone else the filter is ignored and the attributes are not shown.
    const mine = await alice.api.get('/projects', { query: 'custom_attributes[team]=red&with_custom_attributes=true&search=tagged' })
    expect(mine.body.map((p: any) => [p.path, p.custom_attributes])).toEqual([['untagged', undefined], ['tagged', undefined]])
  })

  it('answers 400 when a hash parameter is not a hash', async () => {
    const res = await root.get('/projects', { query: 'custom_attributes=plain' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { custom_attributes: ['is invalid'] } })
  })
})

describe('integers and strings', () => {
  it('reads integers sent as strings, and strings sent as JSON numbers', async () => {
    const g = await createGroup(alice.api, { name: 'Numbers', path: 'numbers' })
    const res = await alice.api.post('/projects', { name: 12345, namespace_id: String(g.id) })
    expect(res.status).toBe(201)
    expect([res.body.name, res.body.path_with_namespace]).toEqual(['12345', 'numbers/12345'])
  })
})

describe(':id in paths', () => {
  let nested: any

  beforeAll(async () => {
    const top = await createGroup(alice.api, { name: 'Top', path: 'top' })
    const mid = await createGroup(alice.api, { name: 'Mid', path: 'mid', parent_id: top.id })
    nested = await createProject(alice.api, { name: 'Deep.Project', path: 'deep.project', namespace_id: mid.id })
  })

  it.each([
    ['the integer id', () => String(nested.id)],
    ['the full path with %2F', () => 'top%2Fmid%2Fdeep.project'],
    ['the full path with lower-case %2f', () => 'top%2fmid%2fdeep.project'],
    ['the full path in another letter case', () => 'TOP%2FMid%2FDeep.Project'],
  ])('finds a project by %s', async (_name, ref) => {
    const res = await alice.api.get(`/projects/${ref()}`)
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(nested.id)
  })

  it('finds a group by its encoded full path', async () => {
    expect((await alice.api.get('/groups/top%2Fmid')).body.full_path).toBe('top/mid')
  })

  it('does not treat an unencoded slash as part of the id', async () => {
    const res = await alice.api.get('/projects/top/mid/deep.project')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: '404 Not Found' })
  })

  it.each(['0', '-1', '99999999999', 'nobody%2Fnothing', '%2F', '..%2F..%2Fetc'])('answers 404 Project Not Found for %s', async (ref) => {
    const res = await alice.api.get(`/projects/${ref}`)
    expect(res.status).toBe(404)
    expect(res.text).toBe('{"message":"404 Project Not Found"}')
  })
})
