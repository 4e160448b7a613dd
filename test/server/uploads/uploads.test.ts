// POST /projects/:id/uploads: files stored under a generated directory, GitLab's answer, and the file served back.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let bob: TestUser
let id: number
let publicId: number

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  bob = await createUser(server, 'bob', { name: 'Bob' })
  id = (await createProject(alice.api, { name: 'up', visibility: 'private' })).id
  publicId = (await createProject(alice.api, { name: 'pub', visibility: 'public' })).id
})
afterAll(() => server.close())

function upload(projectId: number, name: string, data: Buffer | string, token: string | null = alice.token) {
  const form = new FormData()
  form.append('file', new Blob([data]), name)
  return fetch(`${server.api}/projects/${projectId}/uploads`, { method: 'POST', body: form, headers: token ? { 'PRIVATE-TOKEN': token } : {} })
}

const SECRET = /^\/uploads\/([0-9a-f]{32})\//

describe('POST /projects/:id/uploads', () => {
  it('answers alt, url, full_path and markdown, an image linked as one', async () => {
    const res = await upload(id, 'dk.png', 'PNG')
    expect(res.status).toBe(201)
    const body = await res.json() as Record<string, string>
    const secret = SECRET.exec(body.url)![1]
    expect(body).toEqual({ alt: 'dk', url: `/uploads/${secret}/dk.png`, full_path: `/-/project/${id}/uploads/${secret}/dk.png`, markdown: `![dk](/uploads/${secret}/dk.png)` })
  })

  it('links other files by their whole name, and serves them back at full_path and through the API', async () => {
    const body = await (await upload(id, 'notes [v2].txt', 'hello\n')).json() as Record<string, string>
    const secret = SECRET.exec(body.url)![1]
    expect(body).toEqual({
      alt: 'notes__v2_.txt', url: `/uploads/${secret}/notes__v2_.txt`, full_path: `/-/project/${id}/uploads/${secret}/notes__v2_.txt`,
      markdown: `[notes__v2_.txt](/uploads/${secret}/notes__v2_.txt)`,
    })
    const web = await fetch(server.url + body.full_path, { headers: { 'PRIVATE-TOKEN': alice.token } })
    expect([web.status, web.headers.get('content-type'), web.headers.get('content-disposition'), await web.text()])
      .toEqual([200, 'text/plain; charset=utf-8', 'attachment; filename="notes__v2_.txt"', 'hello\n'])
    const viaApi = await alice.api.get(`/projects/${id}/uploads/${secret}/notes__v2_.txt`)
    expect([viaApi.status, viaApi.text]).toEqual([200, 'hello\n'])
  })

  it('reads a UTF-8 file name as UTF-8 and keeps its letters', async () => {
    const body = await (await upload(id, 'ünï café.md', 'x')).json() as Record<string, string>
    expect(body.alt).toBe('ünï_café.md')
    expect(decodeURIComponent(body.url)).toMatch(/\/ünï_café\.md$/)
  })

  it('keeps hostile names inside a generated directory of the project', async () => {
    for (const name of ['../../../escape.txt', '..', '.git', 'a\\..\\b.sh', '%2e%2e%2fx']) {
      const res = await upload(id, name, 'x')
      expect(res.status).toBe(201)
      const body = await res.json() as Record<string, string>
      expect(body.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/[^/]+$/)
      expect(body.url.split('/')[3]).not.toMatch(/^\.+$/)
    }
    expect(readdirSync(join(server.dataDir, 'uploads')).sort()).toEqual([String(id)])
    expect(readdirSync(join(server.dataDir, 'uploads', String(id))).every((d) => /^[0-9a-f]{32}$/.test(d))).toBe(true)
  })

  it('answers 400 without a file, 413 past max_attachment_size, and nothing is stored for either', async () => {
    const before = readdirSync(join(server.dataDir, 'uploads', String(id))).length
    const none = await alice.api.post(`/projects/${id}/uploads`, { other: 'x' })
    expect([none.status, none.text]).toEqual([400, '{"error":"file is missing"}'])
    expectStatus(await api(server, server.rootToken).put('/application/settings', { max_attachment_size: 1 }), 200)
    const big = await upload(id, 'big.bin', Buffer.alloc(1024 * 1024 + 1))
    expect([big.status, await big.text()]).toEqual([413, '{"message":"413 Request Entity Too Large"}'])
    expectStatus(await api(server, server.rootToken).put('/application/settings', { max_attachment_size: 10 }), 200)
    expect(readdirSync(join(server.dataDir, 'uploads', String(id))).length).toBe(before)
  })

  it('needs a signed-in user who sees the project', async () => {
    expect((await upload(id, 'a.txt', 'x', null)).status).toBe(401)
    const res = await upload(id, 'a.txt', 'x', bob.token)
    expect([res.status, await res.text()]).toEqual([404, '{"message":"404 Project Not Found"}'])
    expect((await upload(publicId, 'a.txt', 'x', bob.token)).status).toBe(201)
  })

  it('serves a private upload to nobody else, and 404 for unknown or malformed names', async () => {
    const body = await (await upload(id, 'secret.txt', 's')).json() as Record<string, string>
    const stranger = await fetch(server.url + body.full_path)
    expect([stranger.status, await stranger.text()]).toEqual([404, '{"message":"404 Project Not Found"}'])
    const secret = SECRET.exec(body.url)![1]
    for (const path of [`${secret}/other.txt`, `${'0'.repeat(32)}/secret.txt`, `nothex/secret.txt`, `${secret}/..%2F..%2Fescape.txt`]) {
      const res = await alice.api.get(`/projects/${id}/uploads/${path}`)
      expect([path, res.status, res.text]).toEqual([path, 404, '{"message":"404 Not Found"}'])
    }
  })
})
