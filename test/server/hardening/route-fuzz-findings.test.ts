// Defects the route fuzz (test/fuzz/routes.test.ts) found outside the contract, each pinned by the smallest request that showed it.
import net from 'node:net'
import { PassThrough } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readPushCommands } from '../../../src/server/git/push-commands.js'
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

/** Writes requests as bytes and reads until the server closes (kept open, as a keep-alive client does, only the server may close it). */
function exchange(bytes: string, opts: { keepOpen?: boolean } = {}): Promise<string> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => (opts.keepOpen ? socket.write(bytes) : socket.end(bytes)))
    const chunks: Buffer[] = []
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')))
    socket.on('data', (c: Buffer) => chunks.push(c)).on('error', reject).on('close', () => resolve(Buffer.concat(chunks).toString('latin1')))
  })
}

describe('a CONNECT request', () => {
  it('answers 405 with GitLab\'s JSON body, as nginx refuses CONNECT, instead of closing the connection unanswered', async () => {
    const text = await exchange('CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n')
    const [head, body] = text.split('\r\n\r\n')
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 405 Method Not Allowed')
    expect(head).toContain('\r\nContent-Type: application/json\r\n')
    expect(JSON.parse(body)).toEqual({ error: '405 Not Allowed' })
  })
})

describe('a request asking to upgrade the connection (curl --http2 sends Upgrade: h2c)', () => {
  it('is answered with Connection: close, since node reads no further request on that connection', async () => {
    const upgrade = 'GET /api/v4/version HTTP/1.1\r\nHost: fuzz\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n'
    const text = await exchange(upgrade + 'GET /api/v4/version HTTP/1.1\r\nHost: fuzz\r\n\r\n', { keepOpen: true })
    const [head, body] = text.split('\r\n\r\n')
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized')
    expect(head).toContain('\r\nConnection: close\r\n')
    expect(JSON.parse(body)).toEqual({ message: '401 Unauthorized' })
  })
})

describe('a gzipped push whose command list inflates far past its size', () => {
  it('stops reading at the command cap of 8 MiB inflated, instead of parsing (and holding) every command it inflates to', async () => {
    // 52 KB of gzip inflating to 27 MB of 9-byte commands and no flush-pkt, from a client that keeps the request open.
    const line = Buffer.from('0009a b c')
    const input = new PassThrough()
    input.write(gzipSync(Buffer.alloc(line.length * 3_000_000, line)))
    // A reader that did not stop at the cap would wait for the rest forever: this bound only names that failure (well
    // inside the test's timeout); a loaded machine takes seconds to inflate and parse 8 MiB.
    let timer: NodeJS.Timeout | undefined
    const stuck = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('still reading past the cap')), 45_000)))
    const push = await Promise.race([readPushCommands(input, true), stuck]).finally(() => clearTimeout(timer))
    input.destroy()
    expect(push.complete).toBe(false)
    expect(push.commands.length).toBeLessThanOrEqual(Math.ceil((8 * 1024 * 1024) / line.length))
  })
})
