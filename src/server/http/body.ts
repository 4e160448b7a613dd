// Reads request bodies: JSON, urlencoded forms (qs, so name[]= and name[key]= nest) and multipart (busboy), under a size limit.
import type { IncomingMessage } from 'node:http'
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Readable } from 'node:stream'
import qs from 'qs'
import { badRequest, CollabError } from '../../core/errors.js'
import { zlib } from '../../core/lazy-zlib.js'
import type { StoredBody } from '../context.js'

export interface UploadedFile { filename: string; mimeType: string; data: Buffer }

/** A multipart file written to disk as it arrived (an endpoint declared `uploadsToDisk`): never held in memory. */
export interface DiskFile { filename: string; mimeType: string; path: string; size: number }

export const QS_OPTIONS = { depth: 5, arrayLimit: 1000, parameterLimit: 5000, allowDots: false } as const

const HASH_IN_ARRAY = /^([^[\]]+(?:\[[^\]]+\])*)\[\]\[([^\]]+)\](.*)$/

/**
 * Query strings and forms as Rack reads them. `actions[][action]=a&actions[][action]=b` is two hashes in Rack
 * (a key already in the array's last hash starts the next one) but one hash of arrays in qs, so the brackets get indices first.
 */
export function parseParams(text: string): Record<string, unknown> {
  const open = new Map<string, { index: number; keys: Set<string> }>()
  const pairs = text.split('&').map((pair) => {
    const eq = pair.indexOf('=')
    let key: string
    try {
      key = decodeURIComponent((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '))
    } catch {
      return pair
    }
    const m = HASH_IN_ARRAY.exec(key)
    if (!m) return pair
    const [, name, sub, rest] = m
    let hash = open.get(name)
    if (!hash || hash.keys.has(sub + rest)) open.set(name, (hash = { index: (hash?.index ?? -1) + 1, keys: new Set() }))
    hash.keys.add(sub + rest)
    return `${encodeURIComponent(`${name}[${hash.index}][${sub}]${rest}`)}${eq < 0 ? '' : pair.slice(eq)}`
  })
  return qs.parse(pairs.join('&'), QS_OPTIONS) as Record<string, unknown>
}

// The rest of the body is never read: closing the connection stops the upload and keeps its bytes from being read as a next request.
export const tooLarge = () => new CollabError('PAYLOAD_TOO_LARGE', '413 Request Entity Too Large', { status: 413, headers: { Connection: 'close' } })

function source(req: IncomingMessage): Readable {
  const enc = String(req.headers['content-encoding'] ?? '').toLowerCase()
  const inflater = enc === 'gzip' ? zlib().createGunzip() : enc === 'deflate' ? zlib().createInflate() : null
  if (!inflater) return req
  // A pipe does not pass errors on: a client that hangs up mid-body fails the inflater, so its reader hears of it.
  req.once('error', (err) => inflater.destroy(err))
  return req.pipe(inflater)
}

/** Stops reading a body: an inflater stops inflating (a gzip bomb goes no further), the rest of the request is discarded. */
function release(req: IncomingMessage, body: Readable) {
  if (body !== req) {
    req.unpipe()
    body.destroy()
  }
  req.resume()
}

/**
 * Wraps the listeners of one request's streams: what a listener throws goes to `fail` (that request answers for it)
 * instead of up through the emitter, where nothing of the request would catch it and the process would exit.
 */
export function guard(fail: (err: unknown) => void) {
  return <A extends unknown[]>(listener: (...args: A) => void) => (...args: A): void => {
    try {
      listener(...args)
    } catch (err) {
      fail(err)
    }
  }
}

const declaredOver = (req: IncomingMessage, limit: number) => {
  const declared = Number(req.headers['content-length'])
  return Number.isFinite(declared) && declared > limit
}

const unreadable = (err: Error) => badRequest(`unreadable request body (${err.message})`)

export function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (declaredOver(req, limit)) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    const stream = source(req)
    const fail = (err: unknown) => {
      if (settled) return
      settled = true
      release(req, stream)
      reject(err)
    }
    const on = guard(fail)
    stream.on('data', on((chunk: Buffer) => {
      if (settled) return
      if ((size += chunk.length) > limit) return fail(tooLarge())
      chunks.push(chunk)
    }))
    stream.on('end', on(() => {
      if (settled) return
      settled = true
      resolve(Buffer.concat(chunks))
    }))
    // A Content-Encoding the bytes do not match fails in the inflate stream; unheard, it would crash the process.
    stream.on('error', on((err: Error) => fail(unreadable(err))))
  })
}

/**
 * Writes a raw body to `path` as it arrives, digesting it on the way (GitLab keeps md5, sha1 and sha256 of a package
 * file); past `limit` bytes the request answers 413 and what was written is left for the caller's directory cleanup.
 */
export function readRawToFile(req: IncomingMessage, limit: number, path: string): Promise<StoredBody> {
  if (declaredOver(req, limit)) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const stream = source(req)
    const file = createWriteStream(path)
    const digests = [createHash('md5'), createHash('sha1'), createHash('sha256')] as const
    let size = 0
    let settled = false
    const fail = (err: unknown) => {
      if (settled) return
      settled = true
      release(req, stream)
      file.destroy()
      reject(err)
    }
    const on = guard(fail)
    // Fed by hand rather than piped: a pipeline would destroy the request, and with it the socket the 413 goes out on.
    stream.on('data', on((chunk: Buffer) => {
      if (settled) return
      if ((size += chunk.length) > limit) return fail(tooLarge())
      for (const digest of digests) digest.update(chunk)
      if (!file.write(chunk)) stream.pause()
    }))
    file.on('drain', on(() => stream.resume()))
    stream.on('end', on(() => { if (!settled) file.end() }))
    file.on('finish', on(() => {
      if (settled) return
      settled = true
      const [md5, sha1, sha256] = digests.map((d) => d.digest('hex'))
      resolve({ path, size, md5, sha1, sha256 })
    }))
    file.on('error', on((err: Error) => fail(err)))
    stream.on('error', on((err: Error) => fail(unreadable(err))))
    req.on('close', on(() => { if (!req.complete) fail(unreadable(new Error('the client went away'))) }))
  })
}

/**
 * `limit` caps a JSON or form body, and the sum of a multipart body's fields (they are its form); `fileLimit` each
 * uploaded file (max_attachment_size); `total` a whole multipart body, by default the fields' limit plus one file's.
 * With `toDir`, multipart files are written there as they arrive (DiskFile) instead of kept in memory.
 */
export async function readBody(req: IncomingMessage, limit: number, fileLimit = limit, total = limit + fileLimit, toDir?: string): Promise<Record<string, unknown>> {
  const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  if (type === 'multipart/form-data') return readMultipart(req, { limit, fileLimit, total, toDir })
  const raw = await readRaw(req, limit)
  if (raw.length === 0) return {}
  const text = raw.toString('utf8')
  if (type === 'application/json' || type.endsWith('+json') || (type === '' && /^\s*[{[]/.test(text))) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw badRequest('malformed JSON in the request body')
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('the JSON body must be an object')
    return parsed as Record<string, unknown>
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') return parseParams(text)
  return {}
}

async function readMultipart(req: IncomingMessage, caps: { limit: number; fileLimit: number; total: number; toDir?: string }): Promise<Record<string, unknown>> {
  if (declaredOver(req, caps.total)) throw tooLarge()
  const { default: Busboy } = await import('busboy')
  return new Promise((resolve, reject) => {
    let bb: ReturnType<typeof Busboy>
    try {
      // Busboy reports its limit when a file reaches fileSize, though nothing follows; GitLab refuses only a file over
      // the limit, so a file of exactly max_attachment_size must pass: one byte more is what busboy has to see.
      // Part names and filenames are UTF-8, as browsers, curl and Rack take them (busboy's default is latin1).
      bb = Busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fileSize: caps.fileLimit + 1, fieldSize: caps.limit, files: 20, fields: 1000 } })
    } catch {
      reject(badRequest('malformed multipart body'))
      return
    }
    const body = source(req)
    const pairs: string[] = []
    // No prototype: a part named `__proto__` must stay a key, not replace the object's prototype.
    const files: Record<string, UploadedFile | DiskFile> = Object.create(null)
    // Files still being written to disk: the body is complete only once each has reached it.
    const writing: Promise<void>[] = []
    let failed = false
    const fail = (err: unknown) => {
      if (failed) return
      failed = true
      release(req, body)
      reject(err)
    }
    const malformed = () => fail(badRequest('malformed multipart body'))
    const on = guard(fail)
    // busboy caps each part; these cap their sum, so 1,000 fields or 20 files each under their cap still cannot add up.
    let received = 0
    let fieldBytes = 0
    // Fed by hand rather than piped: busboy parses inside write(), and calls our part listeners from there, so what
    // either throws lands in this guarded listener and fails this request.
    body.on('data', on((chunk: Buffer) => {
      if (failed) return
      if ((received += chunk.length) > caps.total) return fail(tooLarge())
      if (!bb.write(chunk)) body.pause()
    }))
    bb.on('drain', on(() => body.resume()))
    body.on('end', on(() => bb.end()))
    body.on('error', on((err: Error) => fail(unreadable(err))))
    // Rack names a part without a name after its filename or media type, names no endpoint declares: such a part is ignored.
    bb.on('field', on((name: string | undefined, value: string | undefined, info: { valueTruncated: boolean }) => {
      if (!name) return
      // Busboy hands over undefined for a part in a charset it fails to decode (any but utf-8, latin-1 and utf-16le).
      if (value === undefined) return fail(badRequest(`the multipart field ${name} is in a charset this server cannot read`))
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value)
      if (info.valueTruncated || fieldBytes > caps.limit) return fail(tooLarge())
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    }))
    bb.on('file', on((name: string | undefined, stream: Readable, info: { filename?: string; mimeType: string }) => {
      // A form that ends inside this file destroys its stream with busboy's error; unheard, that error would reach the process.
      stream.on('error', on(malformed))
      if (!name) {
        stream.resume()
        return
      }
      stream.on('limit', on(() => fail(tooLarge())))
      if (caps.toDir) {
        const path = join(caps.toDir, `part-${writing.length}`)
        let size = 0
        stream.on('data', (c: Buffer) => { size += c.length })
        writing.push(pipeline(stream, createWriteStream(path)).then(() => {
          files[name] = { filename: info.filename ?? 'file', mimeType: info.mimeType, path, size }
        }, (err: unknown) => fail(failed ? err : badRequest('malformed multipart body'))))
        return
      }
      const chunks: Buffer[] = []
      stream.on('data', on((c: Buffer) => { if (!failed) chunks.push(c) }))
      stream.on('close', on(() => { files[name] = { filename: info.filename ?? 'file', mimeType: info.mimeType, data: Buffer.concat(chunks) } }))
    }))
    bb.on('error', on(malformed))
    bb.on('close', on(() => {
      if (failed) return
      Promise.all(writing).then(() => { if (!failed) resolve({ ...parseParams(pairs.join('&')), ...files }) }, fail)
    }))
  })
}
