// Requests node's own client refuses to write (odd request lines, duplicate or folded headers, broken chunking), sent
// over a bare socket; the answers are read back off the wire and judged like any other.
import http from 'node:http'
import net from 'node:net'
import fc from 'fast-check'
import type { Answer } from './check.js'
import { hostileString, rawSafe } from './values.js'

const TIMEOUT_MS = 5_000
const H = 'Host: fuzz\r\nConnection: close\r\n'

/** Whole requests as bytes: every one of them must be answered, by a route or by the parser's refusal. */
export const RAW_REQUESTS = [
  `GET / HTTP/1.1\r\n${H}\r\n`,
  'GET /api/v4/projects HTTP/1.0\r\n\r\n',
  'GET /api/v4/version HTTP/0.9\r\n\r\n',
  `GET http://evil.example/api/v4/projects HTTP/1.1\r\n${H}\r\n`,
  `GET fuzz-group/public.git/info/refs HTTP/1.1\r\n${H}\r\n`,
  `OPTIONS * HTTP/1.1\r\n${H}\r\n`,
  `CONNECT evil.example:443 HTTP/1.1\r\n${H}\r\n`,
  `GET /api/v4/projects HTTP/1.1\r\n${H}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  `GET /api/v4/projects HTTP/1.1\r\n${H}Expect: the-unexpected\r\n\r\n`,
  `POST /oauth/token HTTP/1.1\r\n${H}Expect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
  'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
  `GET / HTTP/2.0\r\n${H}\r\n`,
  `GET / HTTP/1.1\r\n${H}Content-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
  `POST /oauth/token HTTP/1.1\r\n${H}Content-Length: -1\r\n\r\n`,
  `POST /oauth/token HTTP/1.1\r\n${H}Content-Length: 0x10\r\n\r\n`,
  `POST /oauth/token HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`,
  `POST /oauth/token HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n5\r\ngrant\r\n0\r\n\r\n`,
  `POST /fuzz-group/public.git/git-upload-pack HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nffffffff\r\n0000\r\n0\r\n\r\n`,
  `POST /fuzz-group/public.git/git-receive-pack HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n4\r\n0000\r\n0\r\n\r\n`,
  `GET / HTTP/1.1\r\n${H}X-Folded: a\r\n  b\r\n\r\n`,
  `GET / HTTP/1.1\r\n${H}NoColon\r\n\r\n`,
  `GET / HTTP/1.1\r\n${H}X: a\rb\r\n\r\n`,
  `GET / HTTP/1.1\r\n${H} : empty-name\r\n\r\n`,
  `GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n`,
  `GET /\0 HTTP/1.1\r\n${H}\r\n`,
  `GET /a b HTTP/1.1\r\n${H}\r\n`,
  `GET /api/v4/projects HTTP/1.1\n${H.replace(/\r\n/g, '\n')}\n`,
  `\r\n\r\nGET /api/v4/version HTTP/1.1\r\n${H}\r\n`,
  `GET /api/v4/version HTTP/1.1\r\nHost: fuzz\r\n\r\nGET /nowhere HTTP/1.1\r\n${H}\r\n`,
  `GET /api/v4/version HTTP/1.1\r\nHost: fuzz\r\n\r\nPOST /oauth/token HTTP/1.1\r\n${H}Content-Length: 3\r\n\r\n{"a`,
  `DELETE /users/sign_out HTTP/1.1\r\n${H}Cookie: _service_session=%ZZ; _service_session=\r\n\r\n`,
  `GET /api/v4/user HTTP/1.1\r\n${H}Cookie: ${'a=b; '.repeat(2000)}\r\n\r\n`,
  `GET / HTTP/1.1\r\n${H}${'X-Many: 1\r\n'.repeat(3000)}\r\n`,
  `GET /${'x'.repeat(70_000)} HTTP/1.1\r\n${H}\r\n`,
  'garbage\r\n\r\n',
  'GET\r\n\r\n',
  '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003',
]

const METHOD_TOKENS = ['GET', 'POST', 'HEAD', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE', 'FOO', 'G ET', 'get', '', 'GET\t']

/** A fixed hostile request, or a request line assembled from odd methods, targets and versions. */
export const rawArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...RAW_REQUESTS) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...METHOD_TOKENS), fc.oneof(fc.constantFrom('/', '*', '/api/v4/version', '/oauth/token', '/fuzz-group/public.git/info/refs?service=git-upload-pack', ''),
    hostileString.map((s) => '/' + rawSafe(s))), fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/1.2', 'HTTP/3', 'http/1.1', 'HTTP/1.1 extra', ''))
    .map(([m, target, version]) => `${m} ${target} ${version}\r\n${H}\r\n`) },
)

/** What came back: every status line seen, and the first answer with its headers and body. */
export interface RawAnswer { statuses: number[]; first?: Answer }

function parseFirst(whole: string): Answer | undefined {
  // Interim answers (100 Continue) come before the one to judge.
  const text = whole.replace(/^(HTTP\/1\.[01] 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '')
  const end = text.indexOf('\r\n\r\n')
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)
  if (end < 0 || !status) return undefined
  const headers: Record<string, string> = {}
  for (const line of text.slice(0, end).split('\r\n').slice(1)) {
    const i = line.indexOf(':')
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
  }
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length'])
  const rest = text.slice(end + 4)
  return { status: Number(status[1]), headers, text: length === undefined ? rest : rest.slice(0, length) }
}

/**
 * Writes the bytes and reads until the server closes: every request ends with `Connection: close` or breaks the parser.
 * The socket is not half-closed: node takes a client's FIN for an abort and drops answers still being prepared.
 */
export function sendRaw(url: string, bytes: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.write(Buffer.from(bytes, 'latin1')))
    const chunks: Buffer[] = []
    const done = () => {
      const text = Buffer.concat(chunks).toString('latin1')
      const statuses = [...text.matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]))
      resolve({ statuses, first: parseFirst(text) })
    }
    // An answer on a connection left open (a keep-alive the request did not ask to close) is still an answer.
    socket.setTimeout(TIMEOUT_MS, () => (chunks.length ? socket.destroy() : socket.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`))))
    socket.on('data', (c: Buffer) => chunks.push(c))
    // A reset after the answer was written (the server refusing the rest of the bytes) still leaves the answer to judge.
    socket.on('error', (err) => (chunks.length ? undefined : reject(err)))
    socket.on('close', done)
  })
}

/** Sends the head and part of the body (chunked, so the server waits for the rest), then hangs up after `ms`. */
export function hangUp(url: string, r: { method: string; path: string; headers: Record<string, string>; body?: Buffer }, cut: number, ms: number): Promise<void> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...r.headers, 'Transfer-Encoding': 'chunked' }
    const req = http.request({ host: hostname, port, method: r.method, path: r.path, headers, agent: false })
    req.on('error', () => resolve())
    req.on('response', (res) => res.resume())
    if (r.body?.length) req.write(r.body.subarray(0, cut % (r.body.length + 1)))
    else req.flushHeaders()
    setTimeout(() => {
      req.destroy()
      resolve()
    }, ms)
  })
}
