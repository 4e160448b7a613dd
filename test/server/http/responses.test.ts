// Response framing: exactly `Content-Type: application/json`, empty 204 and 304, route-level 405, and 500 without a crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, request, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let project: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
  project = await createProject(alice.api, { name: 'Framed', visibility: 'public' })
})
afterAll(() => server.close())

describe('Content-Type', () => {
  // python-gitlab 3.12 compares the header with == 'application/json'; a charset suffix breaks every call.
  it.each([
    ['GET', '/api/v4/user', 200], ['GET', '/api/v4/projects', 200], ['POST', '/api/v4/groups', 201],
    ['GET', '/api/v4/projects/999999', 404], ['POST', '/api/v4/projects', 400], ['GET', '/api/v4/nope', 404],
    ['GET', '/api/v4/version', 200], ['GET', '/api/v4/openapi.json', 200],
  ])('is exactly application/json on %s %s (%i)', async (method, path, status) => {
    const res = await request(server, method, path, { headers: { 'PRIVATE-TOKEN': alice.token }, ...(method === 'POST' ? { json: path.endsWith('groups') ? { name: 'G', path: 'g' } : {} } : {}) })
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text))
  })

  it('is exactly application/json on 401 and 403', async () => {
    const unauth = await api(server).get('/user')
    const forbidden = await alice.api.post('/users', { username: 'x', email: 'x@example.com', name: 'x', password: 'password-123' })
    expect([unauth.status, unauth.headers.get('content-type')]).toEqual([401, 'application/json'])
    expect([forbidden.status, forbidden.headers.get('content-type')]).toEqual([403, 'application/json'])
  })

  it('is exactly application/json on the OAuth token endpoint', async () => {
    const res = await request(server, 'POST', '/oauth/token', { json: { grant_type: 'password', username: 'alice', password: alice.password } })
    expect(res.headers.get('content-type')).toBe('application/json')
  })
})

describe('bodiless answers', () => {
  it('sends 204 with no body and no Content-Type', async () => {
    const bob = await createUser(server, 'bob')
    await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 })
    const res = await alice.api.del(`/projects/${project.id}/members/${bob.id}`)
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(res.headers.get('content-type')).toBeNull()
  })

  it('sends 304 with no body', async () => {
    await alice.api.post(`/projects/${project.id}/star`)
    const res = await alice.api.post(`/projects/${project.id}/star`)
    expect(res.status).toBe(304)
    expect(res.text).toBe('')
    expect(res.headers.get('content-type')).toBeNull()
  })
})

describe('HEAD', () => {
  it('answers like GET, headers included, with no body', async () => {
    const res = await request(server, 'HEAD', '/api/v4/projects', {})
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('x-total')).toBe('1')
  })
})

describe('a known path with another method', () => {
  it.each([
    ['DELETE', '/api/v4/user', 'GET'],
    ['PATCH', `/api/v4/projects/1`, 'GET, PUT, DELETE'],
    ['GET', '/api/v4/projects/1/star', 'POST'],
    ['GET', '/oauth/token', 'POST'],
    ['OPTIONS', '/api/v4/projects', 'GET, POST'],
  ])('answers %s %s with 405 {"error":"405 Not Allowed"} and Allow: %s', async (method, path, allow) => {
    const res = await request(server, method, path, { headers: { 'PRIVATE-TOKEN': alice.token } })
    expect(res.status).toBe(405)
    expect(res.text).toBe('{"error":"405 Not Allowed"}')
    expect(res.headers.get('allow')).toBe(allow)
    expect(res.headers.get('content-type')).toBe('application/json')
  })
})

describe('server errors', () => {
  it('answers 500 {"message":"500 Internal Server Error"} to a failure it did not expect, and keeps serving', async () => {
    const broken = await startTestServer()
    try {
      // A missing table stands in for any bug below the handlers.
      broken.app.db.exec('DROP TABLE stars')
      const res = await api(broken, broken.rootToken).get('/projects', { query: { starred: true } })
      expect(res.status).toBe(500)
      expect(res.text).toBe('{"message":"500 Internal Server Error"}')
      expect(res.headers.get('content-type')).toBe('application/json')
      expect((await api(broken, broken.rootToken).get('/user')).status).toBe(200)
    } finally {
      await broken.close()
    }
  })
})
