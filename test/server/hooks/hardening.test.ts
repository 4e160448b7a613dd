// Odd input on every hook route answers a 4xx in GitLab's shape, never a 500, and leaves the hook readable.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let alice: TestUser
let project: any
let hook: any
let sys: any

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  project = await createProject(alice.api, { name: 'demo' })
  hook = expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url: 'http://example.com/h' }), 201).body
  sys = expectStatus(await root.post('/hooks', { url: 'http://example.com/s' }), 201).body
})
afterAll(() => server.close())

const ODD: unknown[] = [null, 1, true, [], {}, [[]], [{}], 'x'.repeat(6000), '\u0000', { a: { b: 1 } }, [null], [{ key: 1 }], [{ key: 'a\nb', value: 'v' }], -1, 1e300, 'http://[::1', 'http://%zz']
const FIELDS = ['url', 'token', 'name', 'push_events', 'push_events_branch_filter', 'branch_filter_strategy', 'url_variables', 'custom_headers',
  'custom_webhook_template', 'enable_ssl_verification', 'issues_events']

it('never answers 5xx to odd values of any parameter on project and system hooks', async () => {
  const routes: [Api, string, string][] = [
    [alice.api, 'POST', `/projects/${project.id}/hooks`], [alice.api, 'PUT', `/projects/${project.id}/hooks/${hook.id}`],
    [root, 'POST', '/hooks'], [root, 'PUT', `/hooks/${sys.id}`],
  ]
  for (const field of FIELDS) {
    for (const value of ODD) {
      for (const [as, method, path] of routes) {
        const body = method === 'POST' ? { url: 'http://example.com/x', [field]: value } : { [field]: value }
        const reply = await as.request(method, path, { json: body })
        expect(reply.status, `${method} ${path} ${JSON.stringify(body).slice(0, 200)}: ${reply.text.slice(0, 200)}`).toBeLessThan(500)
        if (reply.status >= 400) expect(typeof reply.body === 'object' && reply.body !== null, reply.text).toBe(true)
      }
    }
  }
  expect(expectStatus(await alice.api.get(`/projects/${project.id}/hooks/${hook.id}`), 200).body.id).toBe(hook.id)
  expect(expectStatus(await root.get(`/hooks/${sys.id}`), 200).body.id).toBe(sys.id)
})

it('answers 4xx to odd ids, triggers, keys and status filters', async () => {
  const base = `/projects/${project.id}/hooks`
  for (const id of ['0', '-1', '99999999999999999999', '1.5', 'abc', '%00']) {
    for (const path of [`${base}/${id}`, `${base}/${id}/events`, `/hooks/${id}`]) {
      const reply = await root.get(path)
      expect([400, 404], `${path}: ${reply.status} ${reply.text}`).toContain(reply.status)
    }
    expect([400, 404]).toContain((await root.post(`${base}/${hook.id}/events/${id}/resend`)).status)
    expect([400, 404]).toContain((await root.post(`${base}/${id}/test/push_events`)).status)
  }
  for (const status of ['abc', '-1', 'successful,zzz', '1e9']) {
    const reply = await root.get(`${base}/${hook.id}/events`, { query: { status } })
    expect(reply.status, `${status}: ${reply.text}`).toBeLessThan(500)
  }
  for (const key of ['%00', 'a b', 'x'.repeat(300)]) {
    const reply = await root.put(`${base}/${hook.id}/url_variables/${key}`, { value: 'v' })
    expect(reply.status, `${key}: ${reply.text}`).toBeGreaterThanOrEqual(400)
    expect(reply.status).toBeLessThan(500)
  }
})
