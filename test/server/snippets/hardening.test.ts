// Odd input on every snippet route answers a 4xx in GitLab's shape, never a 500.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let project: any
let snippet: any

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  snippet = expectStatus(await alice.api.post(`/projects/${project.id}/snippets`, { title: 'S', file_name: 's', content: 's', visibility: 'public' }), 201).body
})
afterAll(() => server.close())

const ODD: unknown[] = [null, 1, true, [], {}, [[]], [{}], 'x'.repeat(300), '\u0000', { a: { b: 1 } }, [null], ['a', { file_path: 1 }], -1, 1e300]

it('never answers 5xx to odd values of any parameter, and leaves the snippet readable', async () => {
  const base = `/projects/${project.id}/snippets`
  const fields = ['title', 'description', 'visibility', 'file_name', 'content', 'code', 'files']
  for (const field of fields) {
    for (const value of ODD) {
      for (const [method, path] of [['POST', base], ['PUT', `${base}/${snippet.id}`], ['POST', '/snippets'], ['PUT', `/snippets/${snippet.id}`]]) {
        const body = method === 'POST' ? { title: 't', visibility: 'public', content: 'c', [field]: value } : { [field]: value }
        const reply = await alice.api.request(method, path, { json: body })
        expect(reply.status, `${method} ${path} ${JSON.stringify(body)}: ${reply.text}`).toBeLessThan(500)
        if (reply.status >= 400) expect(typeof reply.body === 'object' && reply.body !== null, reply.text).toBe(true)
      }
    }
  }
  for (const id of ['0', '-1', '99999999999999999999', '1.5', 'abc', '%00']) {
    for (const path of [`${base}/${id}`, `${base}/${id}/raw`, `${base}/${id}/notes`, `/snippets/${id}`, `/snippets/${id}/raw`, `${base}/${snippet.id}/notes/${id}`]) {
      const reply = await alice.api.get(path)
      expect([400, 404], `${path}: ${reply.status} ${reply.text}`).toContain(reply.status)
    }
  }
  // Whatever was accepted (numbers are coerced to strings, as Grape does), the snippet still reads whole.
  const kept = expectStatus(await alice.api.get(`${base}/${snippet.id}`), 200).body
  expect((await alice.api.get(`${base}/${snippet.id}/raw`)).status).toBe(200)
  expect(kept.files.length).toBe(1)
})
