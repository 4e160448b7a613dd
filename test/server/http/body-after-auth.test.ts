// The body is read after the caller is known: an anonymous client cannot make the server buffer a large body to answer 401.
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createUser, rawRequest, request, type Reply, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

const UNAUTHORIZED = '{"message":"401 Unauthorized"}'

/** Sends the headers and a first chunk of a body that never ends; resolves with the answer the server gives meanwhile. */
function unfinishedUpload(headers: Record<string, string | number>): Promise<Pick<Reply, 'status' | 'text' | 'headers'>> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: 'POST', path: '/api/v4/projects', agent: false, headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const replyHeaders = new Headers()
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') replyHeaders.set(k, v)
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: replyHeaders })
        req.destroy()
      })
    })
    req.on('error', reject)
    req.write(`{"name":"x","padding":"${'a'.repeat(128 * 1024)}`)
  })
}

describe('an anonymous request to an endpoint that needs authentication', () => {
  it('answers 401 before a large body has been sent, and closes the connection', async () => {
    const res = await unfinishedUpload({ 'Transfer-Encoding': 'chunked' })
    expect(res.status).toBe(401)
    expect(res.text).toBe(UNAUTHORIZED)
    expect(res.headers.get('connection')).toBe('close')
  }, 5_000)

  it('answers 401 to an announced body over the anonymous limit without waiting for it', async () => {
    const res = await unfinishedUpload({ 'Content-Length': 1024 * 1024 })
    expect(res.status).toBe(401)
    expect(res.text).toBe(UNAUTHORIZED)
  }, 5_000)

  it('answers 401, not 413, to an announced body over the 20 MB limit', async () => {
    const res = await rawRequest(server, { method: 'POST', path: '/api/v4/projects', headers: { 'Content-Type': 'application/json', 'Content-Length': 20 * 1024 * 1024 + 1 }, body: '{}' })
    expect(res.status).toBe(401)
    expect(res.text).toBe(UNAUTHORIZED)
  })

  it('answers 401 for an unknown token in the header before the body has been sent', async () => {
    const res = await unfinishedUpload({ 'Transfer-Encoding': 'chunked', 'PRIVATE-TOKEN': 'glpat-unknown' })
    expect(res.status).toBe(401)
    expect(res.text).toBe(UNAUTHORIZED)
  }, 5_000)

  it('does not look for a token in a body over the anonymous limit', async () => {
    const res = await request(server, 'POST', '/api/v4/projects', { json: { private_token: alice.token, name: 'Big', padding: 'a'.repeat(65 * 1024) } })
    expect(res.status).toBe(401)
    expect(res.text).toBe(UNAUTHORIZED)
  })

  it('answers 401 to a small body without a token', async () => {
    const res = await request(server, 'POST', '/api/v4/projects', { json: { name: 'Nobody' } })
    expect(res.status).toBe(401)
    expect(res.text).toBe(UNAUTHORIZED)
  })
})

describe('credentials in the body', () => {
  it('accepts private_token and access_token in a JSON body', async () => {
    const a = await request(server, 'POST', '/api/v4/projects', { json: { private_token: alice.token, name: 'Json Private' } })
    expect([a.status, a.body.owner?.username]).toEqual([201, 'alice'])
    const b = await request(server, 'POST', '/api/v4/projects', { json: { access_token: alice.token, name: 'Json Access' } })
    expect([b.status, b.body.owner?.username]).toEqual([201, 'alice'])
  })

  it('accepts private_token in a multipart body', async () => {
    const form = new FormData()
    form.append('private_token', alice.token)
    form.append('name', 'Multipart Token')
    const res = await fetch(`${server.api}/projects`, { method: 'POST', body: form })
    expect(res.status).toBe(201)
    expect(((await res.json()) as any).owner.username).toBe('alice')
  })

  it('applies sudo from the body of a request authenticated by its header', async () => {
    const root = api(server, server.rootToken)
    const res = await root.post('/projects', { name: 'Sudo In Body', sudo: 'alice' })
    expect(res.status).toBe(201)
    expect(res.body.owner.username).toBe('alice')
  })

  it('answers 401 for an unknown token in the body', async () => {
    const res = await request(server, 'POST', '/api/v4/projects', { json: { private_token: 'glpat-unknown', name: 'Nope' } })
    expect(res.status).toBe(401)
    expect(res.text).toBe(UNAUTHORIZED)
  })
})

describe('an authenticated caller', () => {
  it('may send a body far over the anonymous limit', async () => {
    const res = await alice.api.post('/projects', { name: 'Large Body', padding: 'a'.repeat(1024 * 1024) })
    expect(res.status).toBe(201)
  })
})
