// The running server's backup read straight off the socket into the file, for a server reached over plain http (the
// local `collab serve` a backup is usually taken of). node's HTTP client reads 64 KB at a time into a new buffer and
// copies every body chunk once more; here a few 1 MB buffers take the reads, which measured 210 ms of CPU against
// 450 ms for a 200 MB backup. Each read's bytes are written to the file on libuv's threads while the next read is
// taken: written in turn on the main thread, the copy into the file held up the socket (every read found a full 1 MB
// waiting), and the server waited. Anything else (https, a progress bar, compression, stdout) goes through the client's
// streams.
import { write } from 'node:fs'
import { connect } from 'node:net'
import { CollabError } from '../../src/core/errors.js'
import { VERSION } from '../../src/core/version.js'
import { apiError, type ApiClient } from '../../src/client/http.js'
import type { Route } from '../../src/client/paths.js'

const READ_BUFFER = 1024 * 1024
/** Read buffers kept for reuse; past them the socket waits for a write to give one back. */
const READ_BUFFERS = 4
/** Writes in flight: more than two at once spin on the file's inode lock (see the backup's FileSink). */
const WRITES_IN_FLIGHT = 2

/**
 * Writes runs of bytes to `fd` in order at explicit offsets, on libuv's threads, while the socket reads on. The read
 * buffer a run is a view of stays out of the pool until its last write is done; `full` says the socket should wait.
 */
class FileWriter {
  private position = 0
  private inFlight = 0
  private readonly free: Buffer[] = []
  private readonly writes = new Map<ArrayBufferLike, number>()
  private failure: Error | null = null
  private idle: (() => void) | null = null
  /** Called when a write completes (to resume a paused socket). */
  onWritten: () => void = () => undefined

  constructor(private readonly fd: number) {}

  /** Writes enough in flight, or every read buffer held by them: the socket should wait. */
  get full() {
    return this.inFlight >= WRITES_IN_FLIGHT || this.writes.size >= READ_BUFFERS
  }

  /** The buffer for the next read. */
  buffer(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(READ_BUFFER)
  }

  /** After a read into `buffer` was handled: back to the pool unless writes still hold it. */
  readDone(buffer: Buffer) {
    if (!this.writes.has(buffer.buffer)) this.give(buffer)
  }

  private give(buffer: Buffer) {
    if (this.free.length < READ_BUFFERS) this.free.push(buffer)
  }

  write(bytes: Buffer, read: Buffer) {
    if (this.failure) throw this.failure
    this.writes.set(read.buffer, (this.writes.get(read.buffer) ?? 0) + 1)
    this.put(bytes, this.position, read)
    this.position += bytes.length
  }

  private put(bytes: Buffer, position: number, read: Buffer) {
    this.inFlight++
    write(this.fd, bytes, 0, bytes.length, position, (err, written) => {
      this.inFlight--
      if (!err && written < bytes.length) return this.put(bytes.subarray(written), position + written, read)
      if (err) this.failure ??= err
      const left = this.writes.get(read.buffer)! - 1
      if (left) this.writes.set(read.buffer, left)
      else {
        this.writes.delete(read.buffer)
        this.give(read)
      }
      if (this.inFlight === 0) this.idle?.()
      this.onWritten()
    })
  }

  /** Resolves once no write is in flight; rejects with the first write's failure. */
  async drained(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve))
    if (this.failure) throw this.failure
  }
}
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
 * Sends `route` (the backup's POST, or the GET of a stored one) and writes a 200 answer's body to `fd` as it arrives,
 * each run of bytes shown to `see` first. Any other status is thrown as the client's ApiError with the server's body; a
 * body cut off ends without error (the caller's archive check says it is incomplete).
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
    const file = new FileWriter(fd)
    /** The read buffer the bytes being handled are a view of. */
    let reading: Buffer | null = null
    /** Reading stopped until a write completes (the read callback said false). */
    let waiting = false
    let settled = false
    const finish = async (err?: Error) => {
      if (settled) return
      settled = true
      socket.destroy()
      // The caller closes the file once this settles: no write may still be in flight then.
      err = await file.drained().then(() => err, (failed: Error) => err ?? failed)
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
        file.write(b, reading!)
      } : (b) => void failure.push(Buffer.from(b)))
      return headBytes.subarray(end + 4)
    }
    const socket = connect({
      host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80),
      onread: {
        // Asked for once at the start and after each read's callback, for the next read.
        buffer: () => file.buffer(),
        callback(n: number, buffer: Uint8Array) {
          reading = buffer as Buffer
          try {
            let bytes: Buffer | null = Buffer.from(buffer.buffer, buffer.byteOffset, n)
            if (!body) bytes = onHead(bytes)
            if (bytes && body) body.read(bytes)
            if (body?.complete) void finish()
          } catch (err) {
            void finish(err as Error)
            return false
          } finally {
            file.readDone(reading!)
          }
          // Enough bytes waiting to be written: the socket stops reading until a write completes.
          waiting = file.full
          return !waiting
        },
      },
    })
    file.onWritten = () => {
      if (!waiting || settled || file.full) return
      waiting = false
      socket.resume()
    }
    socket.once('connect', () => {
      const length = route.method === 'GET' ? '' : 'Content-Length: 0\r\n'
      socket.write(`${route.method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: collab/${VERSION}\r\n${auth}${length}Connection: close\r\n\r\n`)
    })
    socket.once('error', (err) => void finish(new CollabError('NETWORK', `cannot reach ${url.origin}: ${err.message}`, { cause: err })))
    socket.once('close', () => void finish())
  })
}
