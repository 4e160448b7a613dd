// Bad input never answers 500: malformed bodies, wrong types, unknown enums, over-long strings, oversized bodies, odd paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, rawRequest, request, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let project: any
const ROUTE_NOT_FOUND = '{"error":"404 Not Found"}'

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
  project = await createProject(alice.api, { name: 'Target' })
})
afterAll(() => server.close())

describe('malformed bodies', () => {
  it('answers 400 to malformed JSON', async () => {
    const res = await alice.api.request('POST', '/projects', { body: '{"name": "x",', headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(400)
    expect(res.text).toBe('{"message":"400 Bad request - malformed JSON in the request body"}')
    expect(res.headers.get('content-type')).toBe('application/json')
  })

  it.each(['[1,2]', '"name"', '42', 'null'])('answers 400 to the JSON body %s, which is not an object', async (body) => {
    const res = await alice.api.request('POST', '/projects', { body, headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: '400 Bad request - the JSON body must be an object' })
  })

  it('answers 400 to a broken multipart body', async () => {
    const res = await alice.api.request('POST', '/projects', {
      body: '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nBroken', headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: '400 Bad request - malformed multipart body' })
  })

  it('answers 400 to a gzip body that is not gzip', async () => {
    const res = await alice.api.request('POST', '/projects', { body: 'not gzip', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } })
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/^400 Bad request - unreadable request body/)
  })

  it('ignores a body of an unknown type', async () => {
    const res = await alice.api.request('POST', '/projects', { body: 'name=Plain', headers: { 'Content-Type': 'text/plain' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: '400 (Bad request) "name" not given' })
  })

  it('keeps __proto__ keys as plain data', async () => {
    const res = await alice.api.request('POST', '/projects', { body: '{"name":"Proto","__proto__":{"visibility":"public"}}', headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(201)
    expect(res.body.visibility).toBe('private')
    const q = await alice.api.get('/projects', { query: '__proto__[owned]=true&constructor[prototype][x]=1' })
    expect(q.status).toBe(200)
    expect(({} as Record<string, unknown>).owned).toBeUndefined()
  })
})

describe('invalid values', () => {
  it.each([
    ['an object for a string', { name: { a: 1 } }, { name: ['is invalid'] }],
    ['a word for an integer', { name: 'Typed', namespace_id: 'abc' }, { namespace_id: ['is invalid'] }],
    ['a fraction for an integer', { name: 'Typed', namespace_id: 1.5 }, { namespace_id: ['is invalid'] }],
    ['an unsafe integer', { name: 'Typed', namespace_id: 1e20 }, { namespace_id: ['is invalid'] }],
    ['an array for a boolean', { name: 'Typed', issues_enabled: [true] }, { issues_enabled: ['is invalid'] }],
    ['an unknown visibility', { name: 'Typed', visibility: 'secret' }, { visibility: ['does not have a valid value'] }],
    ['an unknown merge method', { name: 'Typed', merge_method: 'squash' }, { merge_method: ['does not have a valid value'] }],
    ['a name over 255 characters', { name: 'n'.repeat(256) }, { name: ['is too long (maximum is 255 characters)'] }],
    ['a null name', { name: null, path: 'null-name' }, { name: ['is invalid'] }],
  ])('answers 400 with the field error for %s', async (_name, body, errors) => {
    const res = await alice.api.post('/projects', body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: errors })
  })

  it('reports every invalid field at once', async () => {
    const res = await alice.api.post('/projects', { name: 'Many', visibility: 'secret', issues_enabled: 'maybe' })
    expect(res.body).toEqual({ message: { visibility: ['does not have a valid value'], issues_enabled: ['is invalid'] } })
  })

  it('answers 400 to an unknown enum value in a list filter', async () => {
    const res = await alice.api.get('/projects', { query: { order_by: 'popularity' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { order_by: ['does not have a valid value'] } })
  })

  it('answers 400 to a path parameter that is too long', async () => {
    const res = await alice.api.get(`/projects/${'a'.repeat(1100)}`)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: { id: ['is too long (maximum is 1024 characters)'] } })
  })

  it('accepts a 255-character name', async () => {
    const res = await alice.api.post('/projects', { name: 'n'.repeat(255), path: 'long-name' })
    expect(res.status).toBe(201)
    expect(res.body.name).toHaveLength(255)
  })
})

describe('body size', () => {
  it('answers 413 to a declared body over the 20 MB limit', async () => {
    const res = await rawRequest(server, {
      method: 'POST', path: '/api/v4/projects',
      headers: { 'PRIVATE-TOKEN': alice.token, 'Content-Type': 'application/json', 'Content-Length': 20 * 1024 * 1024 + 1 },
      body: '{}',
    })
    expect(res.status).toBe(413)
    expect(res.text).toBe('{"message":"413 Request Entity Too Large"}')
    expect(res.headers.get('content-type')).toBe('application/json')
    // The announced body never comes; the connection is closed rather than read into the next request.
    expect(res.headers.get('connection')).toBe('close')
  })

  it('answers 413 to a chunked body that grows over the limit, and keeps serving', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'a')
    const res = await rawRequest(server, {
      method: 'POST', path: '/api/v4/projects',
      headers: { 'PRIVATE-TOKEN': alice.token, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body: Array.from({ length: 21 }, () => chunk),
    })
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ message: '413 Request Entity Too Large' })
    expect((await alice.api.get('/user')).status).toBe(200)
  })
})

describe('unknown routes', () => {
  it.each([
    ['GET', '/api/v4/nope'], ['GET', '/api/v4/projects/1/nope'], ['POST', '/api/v4/projects/1/nope'], ['GET', '/api/v5/projects'],
    ['GET', '/api/v4'], ['POST', '/nope'],
  ])('answers %s %s with 404 {"error":"404 Not Found"}', async (method, path) => {
    const res = await request(server, method, path, { headers: { 'PRIVATE-TOKEN': alice.token } })
    expect(res.status).toBe(404)
    expect(res.text).toBe(ROUTE_NOT_FOUND)
    expect(res.headers.get('content-type')).toBe('application/json')
  })

  it('answers an unknown route the same with or without credentials', async () => {
    expect((await request(server, 'GET', '/api/v4/nope')).text).toBe(ROUTE_NOT_FOUND)
  })
})

describe('odd paths', () => {
  it.each([
    ['/api/v4/../../etc/passwd', ROUTE_NOT_FOUND],
    ['/api/v4/projects/../../../etc/passwd', ROUTE_NOT_FOUND],
    ['/api/v4/projects/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '{"message":"404 Project Not Found"}'],
  ])('never escapes the API for %s', async (path, body) => {
    const res = await rawRequest(server, { path, headers: { 'PRIVATE-TOKEN': alice.token } })
    expect(res.status).toBe(404)
    expect(res.text).toBe(body)
  })

  it('resolves a project path containing .. segments to nothing', async () => {
    const res = await alice.api.get(`/projects/alice%2F..%2Falice%2F${project.path}`)
    expect(res.status).toBe(404)
    expect(res.text).toBe('{"message":"404 Project Not Found"}')
  })

  it('answers 404, not 500, to a broken percent-escape', async () => {
    const res = await rawRequest(server, { path: '/api/v4/projects/alice%2', headers: { 'PRIVATE-TOKEN': alice.token } })
    expect(res.status).toBe(404)
    expect(res.text).toBe('{"message":"404 Project Not Found"}')
  })

  it('answers 404 for a NUL byte in an id', async () => {
    const res = await alice.api.get('/projects/alice%2F%00')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Project Not Found' })
  })

  it('keeps serving after all of the above', async () => {
    expect((await alice.api.get(`/projects/${project.id}`)).status).toBe(200)
  })
})
