// Webhook delivery to an https receiver (node:https is loaded at the first such delivery, not with the server): a
// self-signed certificate made by openssl for this run, taken with enable_ssl_verification off and refused with it on.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { configureDeliveries, deliveriesIdle } from '../../../src/server/services/hooks/webhook-delivery.js'

let server: TestServer
let alice: TestUser
let project: any
let receiver: Server
let url: string
let certDir: string
const received: { path: string; event: string | undefined; body: any }[] = []

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'collab-hook-tls-'))
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1',
    '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem')], { stdio: 'ignore' })
  receiver = createServer({ key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ path: req.url!, event: req.headers['x-gitlab-event'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('tls ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`

  server = await startTestServer()
  configureDeliveries(server.app, { retryDelaysMs: [], timeoutMs: 5000 })
  const root = api(server, server.rootToken)
  expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
  alice = await createUser(server, 'alice')
  project = await createProject(alice.api, { name: 'tls' })
})
afterAll(async () => {
  await server?.close()
  await new Promise((resolve) => receiver?.close(resolve))
  rmSync(certDir, { recursive: true, force: true })
})

const events = async (hookId: number) => expectStatus(await alice.api.get(`/projects/${project.id}/hooks/${hookId}/events`), 200).body

describe('webhooks to an https address', () => {
  it('are sent over TLS when certificate verification is off, and logged with the answer', async () => {
    const hook = expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url, issues_events: true, push_events: false, enable_ssl_verification: false }), 201).body
    expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Over TLS' }), 201)
    await deliveriesIdle(server.app)
    expect(received.map((r) => [r.path, r.event, r.body.object_attributes.title])).toEqual([['/hook', 'Issue Hook', 'Over TLS']])
    expect((await events(hook.id)).map((l: any) => [l.response_status, l.response_body])).toEqual([['200', 'tls ok']])
    expectStatus(await alice.api.del(`/projects/${project.id}/hooks/${hook.id}`), 204)
  })

  it('are refused by a self-signed certificate when verification is on, and logged as failed', async () => {
    const hook = expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url, issues_events: true, push_events: false, enable_ssl_verification: true }), 201).body
    expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Untrusted' }), 201)
    await deliveriesIdle(server.app)
    expect(received.map((r) => r.body.object_attributes.title)).toEqual(['Over TLS'])
    expect((await events(hook.id)).map((l: any) => l.response_status)).toEqual(['internal error'])
  })
})
