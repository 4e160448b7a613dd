// Webhooks never reach local or private addresses unless an administrator allows it (GitLab's default is off, also
// for `collab serve` on loopback): refused at create with GitLab's 422, refused again at delivery (the test endpoint
// reaches no receiver), whatever spelling names the address, and a receiver's redirect is never followed.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import type { TestServer } from '../../helpers/server.js'
import { startServer } from '../../../src/server/serve.js'
import { startReceiver, type Receiver } from './receiver.js'

const ROOT_TOKEN = 'glpat-local-hooks-root-token-000000'

let dataDir: string
let served: Awaited<ReturnType<typeof startServer>>
let root: Api
let maintainer: TestUser
let projectId: number
let rx: Receiver
let port: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'collab-local-hooks-'))
  // `collab serve` on loopback, as a user starts it: the default a fresh instance has.
  served = await startServer({ host: '127.0.0.1', port: 0, dataDir, rootToken: ROOT_TOKEN, log: () => {}, runner: { enabled: false } })
  const server = { url: served.url, rootToken: ROOT_TOKEN } as TestServer
  root = api(server, ROOT_TOKEN)
  maintainer = await createUser(server, 'mallory')
  projectId = (await createProject(maintainer.api, { name: 'own', initialize_with_readme: true })).id
  rx = await startReceiver()
  port = new URL(rx.url).port
})
afterAll(async () => {
  await rx.close()
  await served.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const LOCAL_SPELLINGS = [
  '127.0.0.1', 'localhost', 'localhost.', 'LOCALHOST', '127.1', '0x7f.1', '2130706433', '017700000001', '[::1]', '[::ffff:127.0.0.1]',
  '[::127.0.0.1]', '0.0.0.0', '[::]', '169.254.169.254', '10.0.0.1', '192.168.1.1', '172.16.0.1', '[fd00::1]', '[fe80::1]',
]

const setLocal = async (on: boolean) =>
  expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: on }), 200)
const addHook = (host: string) => maintainer.api.post(`/projects/${projectId}/hooks`, { url: `http://${host}:${port}/hook`, push_events: true })

describe('a fresh server', () => {
  it('has local requests from hooks switched off', async () => {
    expect(expectStatus(await root.get('/application/settings'), 200).body.allow_local_requests_from_hooks_and_services).toBe(false)
  })

  it("refuses a maintainer's hook to a local, link-local or private address, however spelled, with GitLab's 422", async () => {
    for (const host of LOCAL_SPELLINGS) {
      const res = await addHook(host)
      expect({ host, status: res.status, body: res.body }).toEqual({ host, status: 422, body: { message: 'Invalid url given' } })
    }
    expect(expectStatus(await maintainer.api.get(`/projects/${projectId}/hooks`), 200).body).toEqual([])
  })
})

describe('at delivery', () => {
  it('reaches no local receiver through a hook saved while an administrator allowed it', async () => {
    await setLocal(true)
    const hooks: { host: string; id: number }[] = []
    for (const host of ['127.0.0.1', 'localhost', 'localhost.', '127.1', '0x7f.1', '2130706433', '[::ffff:127.0.0.1]']) {
      hooks.push({ host, id: expectStatus(await addHook(host), 201).body.id })
    }
    await setLocal(false)
    for (const { host, id } of hooks) {
      const res = await maintainer.api.post(`/projects/${projectId}/hooks/${id}/test/push_events`)
      expect({ host, status: res.status, body: res.body }).toEqual({ host, status: 422, body: { message: 'Requests to localhost are not allowed' } })
    }
    expect(rx.received).toEqual([])
    for (const { id } of hooks) expectStatus(await maintainer.api.del(`/projects/${projectId}/hooks/${id}`), 204)
  })

  it('never follows a redirect, so a receiver cannot send the request on to a local address', async () => {
    const target = await startReceiver()
    try {
      await setLocal(true)
      const hook = expectStatus(await addHook('127.0.0.1'), 201).body
      // The receiver's answer names where to go next; a client that followed it would call `target`.
      const redirecting = await startRedirect(`${target.url}/internal`)
      try {
        expectStatus(await maintainer.api.put(`/projects/${projectId}/hooks/${hook.id}`, { url: `${redirecting.url}/hook` }), 200)
        const res = await maintainer.api.post(`/projects/${projectId}/hooks/${hook.id}/test/push_events`)
        expect(res.status).toBe(422)
        expect(redirecting.hits).toBe(1)
        expect(target.received).toEqual([])
      } finally {
        await redirecting.close()
      }
    } finally {
      await setLocal(false)
      await target.close()
    }
  })
})

/** A receiver that answers every request with a 307 to `location` (307 keeps the method and body). */
async function startRedirect(location: string) {
  const http = await import('node:http')
  const state = { hits: 0 }
  const server = http.createServer((req, res) => {
    state.hits++
    req.resume()
    req.on('end', () => res.writeHead(307, { Location: location }).end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as import('node:net').AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    get hits() { return state.hits },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}
