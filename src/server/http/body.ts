// Reads request bodies: JSON, urlencoded forms (qs, so name[]= and name[key]= nest) and multipart (busboy), under a size limit.
import type { IncomingMessage } from 'node:http'
import { createGunzip, createInflate } from 'node:zlib'
import type { Readable } from 'node:stream'
import qs from 'qs'
import { badRequest, CollabError } from '../../core/errors.js'

export interface UploadedFile { filename: string; mimeType: string; data: Buffer }

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
  if (enc === 'gzip') return req.pipe(createGunzip())
  if (enc === 'deflate') return req.pipe(createInflate())
  return req
}

const declaredOver = (req: IncomingMessage, limit: number) => {
  const declared = Number(req.headers['content-length'])
  return Number.isFinite(declared) && declared > limit
}

export function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (declaredOver(req, limit)) return Promise.reject(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stream = source(req)
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        stream.removeAllListeners('data')
        stream.resume()
        reject(tooLarge())
        return
      }
      chunks.push(chunk)
    })
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', (err) => reject(badRequest(`unreadable request body (${err.message})`)))
  })
}

/**
 * `limit` caps a JSON or form body, and the sum of a multipart body's fields (they are its form); `fileLimit` each
 * uploaded file (max_attachment_size); `total` a whole multipart body, by default the fields' limit plus one file's.
 */
export async function readBody(req: IncomingMessage, limit: number, fileLimit = limit, total = limit + fileLimit): Promise<Record<string, unknown>> {
  const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  if (type === 'multipart/form-data') return readMultipart(req, { limit, fileLimit, total })
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

async function readMultipart(req: IncomingMessage, caps: { limit: number; fileLimit: number; total: number }): Promise<Record<string, unknown>> {
  if (declaredOver(req, caps.total)) throw tooLarge()
  const { default: Busboy } = await import('busboy')
  return new Promise((resolve, reject) => {
    let bb: ReturnType<typeof Busboy>
    try {
      // Busboy reports its limit when a file reaches fileSize, though nothing follows; GitLab refuses only a file over
      // the limit, so a file of exactly max_attachment_size must pass: one byte more is what busboy has to see.
      bb = Busboy({ headers: req.headers, limits: { fileSize: caps.fileLimit + 1, fieldSize: caps.limit, files: 20, fields: 1000 } })
    } catch {
      reject(badRequest('malformed multipart body'))
      return
    }
    const body = source(req)
    const pairs: string[] = []
    // No prototype: a part named `__proto__` must stay a key, not replace the object's prototype.
    const files: Record<string, UploadedFile> = Object.create(null)
    let failed = false
    const fail = (err: CollabError) => { if (!failed) { failed = true; body.unpipe(bb); body.resume(); reject(err) } }
    // busboy caps each part; these cap their sum, so 1,000 fields or 20 files each under their cap still cannot add up.
    let received = 0
    let fieldBytes = 0
    body.on('data', (chunk: Buffer) => { if ((received += chunk.length) > caps.total) fail(tooLarge()) })
    // A Content-Encoding the bytes do not match fails in the inflate stream; unheard, it would crash the process.
    body.on('error', (err) => fail(badRequest(`unreadable request body (${err.message})`)))
    bb.on('field', (name, value, info) => {
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value)
      if (info.valueTruncated || fieldBytes > caps.limit) fail(tooLarge())
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    })
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => { if (!failed) chunks.push(c) })
      stream.on('limit', () => fail(tooLarge()))
      stream.on('close', () => { files[name] = { filename: info.filename ?? 'file', mimeType: info.mimeType, data: Buffer.concat(chunks) } })
    })
    bb.on('error', () => fail(badRequest('malformed multipart body')))
    bb.on('close', () => {
      if (failed) return
      resolve({ ...parseParams(pairs.join('&')), ...files })
    })
    body.pipe(bb)
  })
}
