// Defects the route fuzz (test/fuzz/routes.test.ts) found outside the contract, each pinned by the smallest request that showed it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

describe('an Expect header other than 100-continue', () => {
  it('is ignored, as GitLab (nginx) does, instead of node answering a bodiless 417', async () => {
    const res = await rawRequest(server, { path: '/api/v4/version', headers: { 'PRIVATE-TOKEN': server.rootToken, Expect: 'the-unexpected' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(Object.keys(res.body)).toContain('version')
  })
})
