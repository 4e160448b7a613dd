// Bodies whose parsing runs our code inside stream and parser callbacks: a nameless multipart part, a form that ends
// inside a file, the same through gzip. Each is answered, and the server goes on serving: none may reach the process.
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, expectStatus, request } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let project: { id: number; path_with_namespace: string }

beforeAll(async () => {
  server = await startTestServer()
  project = await createProject(api(server, server.rootToken), { name: 'bodies', visibility: 'public' })
})
afterAll(() => server.close())

const B = 'zzz'
const multipart = (...parts: string[]) => parts.map((p) => `--${B}\r\n${p}\r\n`).join('') + `--${B}--\r\n`
const TYPE = `multipart/form-data; boundary=${B}`

function put(body: string | Buffer, headers: Record<string, string> = {}) {
  return request(server, 'PUT', `/api/v4/projects/${project.id}`, { headers: { 'Content-Type': TYPE, ...headers }, body })
}

async function stillServes() {
  expect((await request(server, 'GET', `/api/v4/projects/${project.id}`)).status).toBe(200)
}

describe('multipart parts without a name', () => {
  it('answers an anonymous caller 401 for a part with no name at all', async () => {
    const res = await put(multipart('Content-Disposition: form-data\r\n\r\nx'))
    expect([res.status, res.body]).toEqual([401, { message: '401 Unauthorized' }])
    await stillServes()
  })

  it('ignores a part with an empty name and keeps the named ones', async () => {
    const res = await put(multipart('Content-Disposition: form-data; name=""\r\n\r\nx', 'Content-Disposition: form-data; name="description"\r\n\r\nkept'),
      { 'PRIVATE-TOKEN': server.rootToken })
    expect([res.status, res.body.description]).toEqual([200, 'kept'])
    await stillServes()
  })

  it('ignores a file part with no name', async () => {
    const res = await request(server, 'POST', `/api/v4/projects/${project.id}/uploads`, {
      headers: { 'Content-Type': TYPE, 'PRIVATE-TOKEN': server.rootToken },
      body: multipart('Content-Disposition: form-data; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello'),
    })
    expect([res.status, res.body]).toEqual([400, { error: 'file is missing' }])
    await stillServes()
  })

  it('ignores a nameless part that arrives gzip-encoded (parsed in zlib\'s callbacks)', async () => {
    const body = gzipSync(multipart('Content-Disposition: form-data\r\n\r\nx', 'Content-Disposition: form-data; name="description"\r\n\r\nzipped'))
    const res = await put(body, { 'PRIVATE-TOKEN': server.rootToken, 'Content-Encoding': 'gzip' })
    expect([res.status, res.body.description]).toEqual([200, 'zipped'])
    await stillServes()
  })
})

describe('multipart fields busboy cannot decode', () => {
  it('answers 400 to a field in a charset busboy hands over as undefined (found by the body fuzz)', async () => {
    const res = await put(multipart('Content-Disposition: form-data; name="description"\r\nContent-Type: text/plain; charset=iso-2022-jp\r\n\r\nx'),
      { 'PRIVATE-TOKEN': server.rootToken })
    expect([res.status, res.body]).toEqual([400, { message: '400 Bad request - the multipart field description is in a charset this server cannot read' }])
    await stillServes()
  })
})

describe('multipart bodies that end inside a part', () => {
  it('answers 400 to a form that ends inside a file (busboy fails the file stream too)', async () => {
    const res = await put(`--${B}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\nxxxx`, { 'PRIVATE-TOKEN': server.rootToken })
    expect([res.status, res.body]).toEqual([400, { message: '400 Bad request - malformed multipart body' }])
    await stillServes()
  })

  it('answers 400 to a gzip-encoded form that ends inside a file', async () => {
    const body = gzipSync(`--${B}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\nxxxx`)
    const res = await put(body, { 'PRIVATE-TOKEN': server.rootToken, 'Content-Encoding': 'gzip' })
    expect([res.status, res.body]).toEqual([400, { message: '400 Bad request - malformed multipart body' }])
    await stillServes()
  })
})

it('still reads the project after every attack', async () => {
  const res = expectStatus(await request(server, 'GET', `/api/v4/projects/${project.id}`), 200)
  expect(res.body.path_with_namespace).toBe(project.path_with_namespace)
})
