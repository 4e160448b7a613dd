// The online backup's receiver: HTTP/1.1 framing (chunked, by length, to the connection's end) undone correctly however
// the bytes are split between reads, the request it sends, and a server's error status thrown as the client's ApiError.
import { randomBytes } from 'node:crypto'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { receivable, receiveInto } from '../../commands/backup/receive.js'
import { ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'

let dir: string
let server: Server
let port: number
/** What the next connection is answered with: pieces written one after another, each after the previous one was sent. */
let answer: (string | Buffer)[] = []
let request = ''

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'collab-receive-'))
  server = createServer((socket: Socket) => {
    socket.setNoDelay(true)
    let head = ''
    socket.on('data', async (b) => {
      head += b.toString('latin1')
      if (!head.includes('\r\n\r\n')) return
      request = head
      // Each piece goes alone, so the receiver's reads end at the awkward places this test chose.
      for (const piece of answer) await new Promise<void>((resolve) => socket.write(piece, () => setTimeout(resolve, 5)))
      socket.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

const api = () => new ApiClient({ host: `http://127.0.0.1:${port}`, token: 'glpat-receive-test-token' })

/** Receives into a new file; returns the file's bytes and what `see` was shown. */
async function receive(): Promise<{ file: Buffer; seen: Buffer }> {
  const path = join(dir, `r-${Math.random().toString(36).slice(2)}.tar`)
  const fd = openSync(path, 'w')
  const seen: Buffer[] = []
  try {
    await receiveInto(api(), route('createBackup', {}), fd, (b) => seen.push(Buffer.from(b)))
  } finally {
    closeSync(fd)
  }
  return { file: readFileSync(path), seen: Buffer.concat(seen) }
}

const body = Buffer.from('x'.repeat(40) + 'ünïcode' + 'y'.repeat(3000))

describe('receiveInto', () => {
  it('undoes chunked framing split inside size lines, data and line ends, and sends the token', async () => {
    const a = body.subarray(0, 31)
    const b = body.subarray(31)
    answer = [
      'HTTP/1.1 200 OK\r\nContent-Type: application/x-tar\r\nTransfer-Enc', 'oding: chunked\r\n\r\n1',
      'f\r', `\n${a.toString('latin1').slice(0, 10)}`, Buffer.concat([a.subarray(10), Buffer.from('\r')]), '\n',
      `${b.length.toString(16)}\r\n`, Buffer.concat([b, Buffer.from('\r\n0\r')]), '\n\r', '\n',
    ]
    const got = await receive()
    expect(got.file).toEqual(body)
    expect(got.seen).toEqual(body)
    expect(request).toMatch(/^POST \/api\/v4\/admin\/backups HTTP\/1\.1\r\n/)
    expect(request).toContain('\r\nPRIVATE-TOKEN: glpat-receive-test-token\r\n')
  })

  it('reads a body of a given length, and one that runs to the end of the connection', async () => {
    answer = [`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`, body.subarray(0, 7), body.subarray(7)]
    expect((await receive()).file).toEqual(body)
    answer = ['HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n', body.subarray(0, 100), body.subarray(100)]
    expect((await receive()).file).toEqual(body)
  })

  it('writes a body many read buffers long in order, each byte once, while reads run ahead of the writes', async () => {
    // 24 MB in 1 MB chunks of chunked framing, sent as fast as the socket takes them: the receiver's four 1 MB read
    // buffers are all held by writes at times, and every read and write must still land at its place.
    const big = randomBytes(24 * 1024 * 1024)
    const framed: Buffer[] = []
    for (let at = 0; at < big.length; at += 1024 * 1024) {
      const part = big.subarray(at, at + 1024 * 1024)
      framed.push(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]))
    }
    answer = ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n', Buffer.concat([...framed, Buffer.from('0\r\n\r\n')])]
    const got = await receive()
    expect(got.file.length).toBe(big.length)
    expect(got.file.equals(big)).toBe(true)
    expect(got.seen.equals(big)).toBe(true)
  })

  it("throws another status as the client's ApiError with the server's message, and writes nothing", async () => {
    const json = '{"message":"403 Forbidden"}'
    answer = [`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`]
    const path = join(dir, 'refused.tar')
    const fd = openSync(path, 'w')
    try {
      await expect(receiveInto(api(), route('createBackup', {}), fd, () => undefined)).rejects.toMatchObject({ name: 'ApiError', status: 403, message: expect.stringContaining('403 Forbidden') })
    } finally {
      closeSync(fd)
    }
    expect(readFileSync(path).length).toBe(0)
  })

  it('fails, naming the server, on an answer that is not HTTP/1.1', async () => {
    answer = ['SSH-2.0-OpenSSH_9.2\r\n\r\n']
    await expect(receive()).rejects.toMatchObject({ code: 'FAILED', message: expect.stringMatching(/^reading the backup from http:\/\/127\.0\.0\.1:\d+: not an HTTP\/1\.1 response/) })
  })

  it('fails with a network error when the connection ends before an answer', async () => {
    answer = []
    await expect(receive()).rejects.toMatchObject({ code: 'NETWORK', message: expect.stringContaining('closed the connection before answering') })
  })
})

describe('receivable', () => {
  it('takes plain http only', () => {
    expect(receivable(api())).toBe(true)
    expect(receivable(new ApiClient({ host: 'https://gitlab.example.com', token: 't' }))).toBe(false)
  })
})
