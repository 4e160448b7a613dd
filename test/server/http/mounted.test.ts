// Every endpoint the contract declares is mounted: a request to its path with its method never meets the router's 404/405.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contract } from '../../../src/contract/index.js'
import { rawRequest } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const endpoints = Object.entries(contract).flatMap(([group, endpoints]) =>
  Object.entries(endpoints).map(([name, e]) => [`${e.method} ${e.path}`, `${group}.${name}`, e.method, e.path] as const))

const NO_ROUTE = ['{"error":"404 Not Found"}', '{"error":"405 Not Allowed"}']

describe('the mount', () => {
  // Anonymous, so no request changes anything: a mounted endpoint answers with its own 401/403/404 or a result.
  it.each(endpoints)('serves %s (%s)', async (_label, _name, method, path) => {
    const res = await rawRequest(server, { method, path: '/api/v4' + path.replace(/:[a-z_]+/g, '1') })
    expect(NO_ROUTE).not.toContain(res.text)
    expect(res.status).toBeLessThan(500)
  })
})
