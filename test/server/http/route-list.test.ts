// The contract is mounted from the build's route list (src/server/routes.generated.ts) and each group's declarations and
// handlers are imported on its first request: the group then serves every route, and a list that disagrees with the
// declarations answers 500 naming what is stale instead of serving an endpoint under another method or path.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { boot } from '../../../src/server/boot.js'
import { closeDatabase } from '../../../src/server/store/db.js'
import { mountContract, type RouteGroup } from '../../../src/server/http/mount.js'
import { routeNotFound, sendError } from '../../../src/server/http/respond.js'
import { Router } from '../../../src/server/http/router.js'
import { HANDLERS } from '../../../src/server/handlers.generated.js'

const dataDir = mkdtempSync(join(tmpdir(), 'collab-route-list-'))
const logged: string[] = []
const TOKEN = 'glpat-route-list-token-000000000'
const { app } = boot({ dataDir, rootToken: TOKEN, log: { info() {}, warn() {}, error: (line: string, err?: unknown) => logged.push(`${line}: ${err instanceof Error ? err.message : err}`) } })
const load = () => import('../../../src/contract/endpoints/meta.js') as Promise<Record<string, unknown>>

/** A server whose one contract group is meta, mounted by the routes given. */
async function serverOf(routes: RouteGroup['routes']) {
  const router = new Router({ onNoMatch: (_req, res) => routeNotFound(res), onError: (err, _req, res) => sendError(res, err, app.log) })
  mountContract(router, app, { meta: { load, routes } }, { meta: HANDLERS.meta })
  const server = http.createServer(router.handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4` }
}

const servers: http.Server[] = []
afterAll(async () => {
  for (const s of servers) await new Promise((resolve) => s.close(resolve))
  closeDatabase(app.db)
  rmSync(dataDir, { recursive: true, force: true })
})

it('serves a group from its first request on, the same requests at once and after', async () => {
  const { server, url } = await serverOf([['getMetadata', 'GET', '/metadata'], ['getOpenApi', 'GET', '/openapi.json'], ['getVersion', 'GET', '/version']])
  servers.push(server)
  const get = (path: string) => fetch(`${url}${path}`, { headers: { 'private-token': TOKEN } })
  const answers = await Promise.all([get('/version'), get('/metadata')])
  expect(answers.map((r) => r.status)).toEqual([200, 200])
  expect(((await answers[0].json()) as { version: string }).version).toBe('17.0.0-collab')
  expect(((await (await get('/version')).json()) as { version: string }).version).toBe('17.0.0-collab')
})

it('answers 500 and names the endpoint when the list routes it by another path than its declaration', async () => {
  const { server, url } = await serverOf([['getMetadata', 'GET', '/metadata'], ['getOpenApi', 'GET', '/openapi.json'], ['getVersion', 'GET', '/versions']])
  servers.push(server)
  const res = await fetch(`${url}/versions`)
  expect([res.status, await res.json()]).toEqual([500, { message: '500 Internal Server Error' }])
  expect(logged.at(-1)).toContain('the route list names meta.getVersion as GET /versions, which its declaration does not say: run node scripts/registries.mjs')
})

it('answers 500 and names the endpoints the list lacks', async () => {
  const { server, url } = await serverOf([['getVersion', 'GET', '/version']])
  servers.push(server)
  expect((await fetch(`${url}/version`)).status).toBe(500)
  expect(logged.at(-1)).toContain('the route list lacks meta.getMetadata, meta.getOpenApi: run node scripts/registries.mjs')
})
