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
