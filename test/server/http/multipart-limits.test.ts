// Multipart bodies are capped as a whole and in the sum of their fields, not only per field and per file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createUser, expectStatus, rawRequest, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
const MiB = 1024 * 1024
const BOUNDARY = 'collab-limits'

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  // Each file may be 1 MiB: the whole body may then be the 20 MiB of fields plus 1 MiB.
  expectStatus(await api(server, server.rootToken).put('/application/settings', { max_attachment_size: 1 }), 200)
})
afterAll(() => server.close())

type Part = { name: string; size: number; filename?: string }

/** A multipart body in 1 MiB chunks, so the server can answer before the client has sent it all. */
function* multipart(parts: Part[]): Iterable<Buffer> {
  for (const part of parts) {
    const file = part.filename ? `; filename="${part.filename}"\r\nContent-Type: application/octet-stream` : ''
    yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`)
    for (let left = part.size; left > 0; left -= MiB) yield Buffer.alloc(Math.min(MiB, left), 'a')
    yield Buffer.from('\r\n')
  }
  yield Buffer.from(`--${BOUNDARY}--\r\n`)
}

const upload = (parts: Part[]) => rawRequest(server, {
  method: 'POST', path: '/api/v4/projects',
  headers: { 'PRIVATE-TOKEN': alice.token, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Transfer-Encoding': 'chunked' },
  body: multipart([{ name: 'name', size: 3 }, ...parts]),
})

describe('multipart limits', () => {
  it('answers 413 when the fields together pass 20 MiB, though each is under it', async () => {
    const res = await upload([{ name: 'a', size: 10.5 * MiB }, { name: 'b', size: 10.5 * MiB }])
    expect(res.status).toBe(413)
    expect(res.text).toBe('{"message":"413 Request Entity Too Large"}')
    expect(res.headers.get('connection')).toBe('close')
  })

  it('answers 413 when the whole body passes the fields limit plus one attachment, though each part is under its own', async () => {
    const res = await upload([
      { name: 'a', size: 19.5 * MiB },
      { name: 'f1', size: 0.9 * MiB, filename: 'one.bin' },
      { name: 'f2', size: 0.9 * MiB, filename: 'two.bin' },
    ])
    expect(res.status).toBe(413)
    expect(res.text).toBe('{"message":"413 Request Entity Too Large"}')
    expect(res.headers.get('connection')).toBe('close')
  })

  it('answers 413 to a file over max_attachment_size', async () => {
    const res = await upload([{ name: 'f', size: 1.5 * MiB, filename: 'big.bin' }])
    expect(res.status).toBe(413)
    expect(res.text).toBe('{"message":"413 Request Entity Too Large"}')
  })

  it('accepts a body within every limit, and keeps serving after the refusals', async () => {
    const form = new FormData()
    form.append('name', 'Within Limits')
    form.append('padding', 'a'.repeat(MiB))
    form.append('file', new Blob([Buffer.alloc(MiB / 2)]), 'half.bin')
    const res = await fetch(`${server.api}/projects`, { method: 'POST', headers: { 'PRIVATE-TOKEN': alice.token }, body: form })
    expect(res.status).toBe(201)
  })
})
