// Defects the contract fuzz (test/fuzz) found, each pinned by the smallest request that showed it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

describe('a multipart body whose Content-Encoding does not match its bytes', () => {
  it('answers 400 instead of leaving the request unanswered and the inflate error uncaught', async () => {
    const res = await rawRequest(server, {
      method: 'POST', path: '/api/v4/projects',
      headers: { 'PRIVATE-TOKEN': server.rootToken, 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Encoding': 'gzip' },
      body: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n',
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: '400 Bad request - unreadable request body (incorrect header check)' })
  })
})

describe('a request node:http cannot parse', () => {
  it('answers 431 with a GitLab JSON body when the request line and headers pass 16 KiB', async () => {
    const res = await rawRequest(server, { path: `/api/v4/projects?search=${'x'.repeat(20_000)}`, headers: { 'PRIVATE-TOKEN': server.rootToken } })
    expect(res.status).toBe(431)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.body).toEqual({ message: '431 Request Header Fields Too Large' })
  })

  it('answers 400 with a GitLab JSON body for both Content-Length and Transfer-Encoding', async () => {
    const res = await rawRequest(server, { path: '/api/v4/projects', headers: { 'PRIVATE-TOKEN': server.rootToken, 'Content-Length': '5', 'Transfer-Encoding': 'chunked' } })
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.body).toEqual({ message: '400 Bad request' })
  })
})

describe('a HEAD request node:http cannot parse', () => {
  it('answers 431 without a body', async () => {
    const res = await rawRequest(server, { method: 'HEAD', path: '/api/v4/projects', headers: { 'X-Padding': 'x'.repeat(17_000) } })
    expect(res.status).toBe(431)
    expect(res.text).toBe('')
  })
})
