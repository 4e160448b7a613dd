// The running server's backup read straight off the socket into the file, for a server reached over plain http (the
// local `collab serve` a backup is usually taken of). node's HTTP client reads 64 KB at a time into a new buffer and
// copies every body chunk once more; here one 1 MB buffer takes each read and its bytes are written before the next,
// which measured 210 ms of CPU against 450 ms for a 200 MB backup. Anything else (https, a progress bar, compression,
// stdout) goes through the client's streams.
import { writeSync } from 'node:fs'
import { connect } from 'node:net'
import { CollabError } from '../../src/core/errors.js'
import { VERSION } from '../../src/core/version.js'
import { apiError, type ApiClient } from '../../src/client/http.js'
import type { Route } from '../../src/client/paths.js'

const READ_BUFFER = 1024 * 1024
/** A response head past this is not one our server sends. */
const MAX_HEAD = 64 * 1024

/** Whether `receiveInto` can take this request: plain http, and credentials that fit in a header line. */
export function receivable(api: ApiClient): boolean {
  const credentials = api.credentials()
  return new URL(api.apiRoot).protocol === 'http:' && !/[\r\n]/.test(credentials?.token ?? '')
}

interface Head { status: number; statusText: string; rawHeaders: [string, string][] }

function parseHead(text: string): Head {
  const [statusLine, ...lines] = text.split('\r\n')
  const m = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine)
  if (!m) throw new Error(`not an HTTP/1.1 response: ${JSON.stringify(statusLine.slice(0, 80))}`)
  const rawHeaders = lines.map((line): [string, string] => {
    const colon = line.indexOf(':')
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()]
  })
  return { status: Number(m[1]), statusText: m[2], rawHeaders }
}

const headerOf = (head: Head, name: string) => head.rawHeaders.find(([n]) => n.toLowerCase() === name)?.[1]

/**
 * A body's framing, chunked or by length or to the end of the connection, undone as its bytes arrive: `take` gets
 * each run of body bytes (a view of the read buffer, used before the next read); `done` says the body ended whole.
 */
function bodyReader(head: Head, take: (bytes: Buffer) => void) {
  const chunked = /chunked/i.test(headerOf(head, 'transfer-encoding') ?? '')
  const length = headerOf(head, 'content-length')
  let left = chunked ? 0 : length === undefined ? Infinity : Number(length)
  let state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = chunked ? 'size' : left === 0 ? 'done' : 'data'
  let line = ''
  /** Bytes up to the next LF, kept across reads; the line without its CR LF once it is whole, else null. */
  const lineFrom = (bytes: Buffer, at: number): [string | null, number] => {
    const lf = bytes.indexOf(10, at)
    line += bytes.toString('latin1', at, lf < 0 ? bytes.length : lf)
    if (line.length > 1024) throw new Error('a chunk size line past 1 KB')
    if (lf < 0) return [null, bytes.length]
    const whole = line.replace(/\r$/, '')
    line = ''
    return [whole, lf + 1]
  }
  return {
    /** The framing said the body ended (a body that runs to the connection's end never says so). */
    get complete() {
      return state === 'done'
    },
    read(bytes: Buffer) {
      for (let at = 0; at < bytes.length && state !== 'done';) {
        if (state === 'data') {
          const n = Math.min(left, bytes.length - at)
          take(bytes.subarray(at, at + n))
          left -= n
          at += n
          if (left === 0) state = chunked ? 'data-end' : 'done'
          continue
        }
        const [text, next] = lineFrom(bytes, at)
        at = next
        if (text === null) continue
        if (state === 'size') {
          left = parseInt(text, 16)
          if (!Number.isFinite(left) || left < 0) throw new Error(`a bad chunk size line: ${JSON.stringify(text.slice(0, 40))}`)
          state = left === 0 ? 'trailer' : 'data'
        } else if (state === 'data-end') state = 'size'
        else if (text === '') state = 'done'
      }
    },
  }
}

/**
 * POSTs `route` and writes a 200 answer's body to `fd` as it arrives, each run of bytes shown to `see` first. Any other
 * status is thrown as the client's ApiError with the server's body; a body cut off ends without error (the caller's
 * archive check says it is incomplete).
 */
export function receiveInto(api: ApiClient, route: Route, fd: number, see: (bytes: Buffer) => void): Promise<void> {
  const url = api.url(route.path)
  const credentials = api.credentials()
  const auth = credentials ? `${credentials.header}: ${credentials.header === 'Authorization' ? `Bearer ${credentials.token}` : credentials.token}\r\n` : ''
  return new Promise<void>((resolve, reject) => {
    let head = null as Head | null
    let headBytes = Buffer.alloc(0)
    let body: ReturnType<typeof bodyReader> | null = null
    const failure: Buffer[] = []
    let settled = false
    const finish = (err?: Error) => {
      if (settled) return
      settled = true
      socket.destroy()
      // A write that failed (a full disk) or bytes that are not HTTP: said with the server's address, not as a bug.
      if (err) return reject(err instanceof CollabError ? err : new CollabError('FAILED', `reading the backup from ${url.origin}: ${err.message}`, { cause: err }))
      if (!head) return reject(new CollabError('NETWORK', `${url.origin} closed the connection before answering`))
      if (head.status !== 200) {
        return reject(apiError({ method: route.method, url: url.href, ...head, text: Buffer.concat(failure).toString('utf8') }))
      }
      resolve()
    }
    const onHead = (bytes: Buffer): Buffer | null => {
      headBytes = Buffer.concat([headBytes, bytes])
      const end = headBytes.indexOf('\r\n\r\n')
      if (end < 0) {
        if (headBytes.length > MAX_HEAD) throw new Error('a response head past 64 KB')
        return null
      }
      head = parseHead(headBytes.toString('latin1', 0, end))
      const ok = head.status === 200
      body = bodyReader(head, ok ? (b) => {
        see(b)
        for (let at = 0; at < b.length;) at += writeSync(fd, b, at)
      } : (b) => void failure.push(Buffer.from(b)))
      return headBytes.subarray(end + 4)
    }
    const socket = connect({
      host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80),
      onread: {
        buffer: Buffer.allocUnsafe(READ_BUFFER),
        callback(n: number, buffer: Uint8Array) {
          try {
            let bytes: Buffer | null = Buffer.from(buffer.buffer, buffer.byteOffset, n)
            if (!body) bytes = onHead(bytes)
            if (bytes && body) body.read(bytes)
            if (body?.complete) finish()
          } catch (err) {
            finish(err as Error)
            return false
          }
          return true
        },
      },
    })
    socket.once('connect', () => {
      socket.write(`POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: collab/${VERSION}\r\n${auth}Content-Length: 0\r\nConnection: close\r\n\r\n`)
    })
    socket.once('error', (err) => finish(new CollabError('NETWORK', `cannot reach ${url.origin}: ${err.message}`, { cause: err })))
    socket.once('close', () => finish())
  })
}
