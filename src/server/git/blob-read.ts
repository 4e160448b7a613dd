// Blobs read whole, streamed with their first bytes read ahead, sent either way by size, and digested.
import { createHash } from 'node:crypto'
import { PassThrough, Readable } from 'node:stream'
import { blobStream, catFile } from './cat-file.js'
import { gitAvailable } from './exec.js'
import { HEX40, expandShortId, readObject, readObjectOf } from './object-read.js'

/** A blob whole (GitOutputTooLarge past the git output limit: use openBlob for large ones). */
export async function readBlob(gitdir: string, oid: string): Promise<Buffer> {
  return (await readObjectOf(gitdir, oid, 'blob')).content
}

/** A blob's full id and size by its full or abbreviated (4+ hex) id; null when no blob has it. */
export async function blobInfo(gitdir: string, name: string): Promise<{ oid: string; size: number } | null> {
  if (!/^[0-9a-f]{4,40}$/.test(name)) return null
  if (await gitAvailable()) {
    const info = await catFile(gitdir).info(name)
    return info?.type === 'blob' ? { oid: info.oid, size: info.size } : null
  }
  const oid = HEX40.test(name) ? name : await expandShortId(gitdir, name)
  const obj = oid ? await readObject(gitdir, oid) : null
  return obj?.type === 'blob' ? { oid: obj.oid, size: obj.size } : null
}

/** How many leading bytes `openBlob` hands over before the stream: enough for git's binary check (a NUL in 8000 bytes). */
const HEAD_BYTES = 8000

/**
 * A blob's bytes as a stream (never whole in memory when git is installed) and its first bytes read ahead; the stream
 * still carries every byte. The id must be a full blob id (see blobInfo).
 */
export async function openBlob(gitdir: string, oid: string): Promise<{ head: Buffer; stream: Readable }> {
  const source = (await gitAvailable()) ? blobStream(gitdir, oid) : Readable.from([await readBlob(gitdir, oid)])
  return readAhead(source, HEAD_BYTES)
}

/** Blobs up to this size are read whole to be sent; larger ones are streamed from git as they are sent. */
export const WHOLE_BLOB_BYTES = 1024 * 1024

/** A blob to send: whole when small, else a stream (with its first bytes read ahead), never whole in memory. */
export async function blobToSend(gitdir: string, oid: string, size: number): Promise<{ head: Buffer; body: Buffer | Readable }> {
  if (size > WHOLE_BLOB_BYTES) {
    const { head, stream } = await openBlob(gitdir, oid)
    return { head, body: stream }
  }
  const content = await readBlob(gitdir, oid)
  return { head: content.subarray(0, HEAD_BYTES), body: content }
}

// SHA-256 digests of blobs by repository and id (a blob never changes): a large one is read once for its digest.
const digests = new Map<string, string>()

/** A blob's SHA-256 (hex), read as a stream: never whole in memory. */
export async function blobSha256(gitdir: string, oid: string): Promise<string> {
  const key = `${gitdir}\0${oid}`
  const known = digests.get(key)
  if (known) return known
  const hash = createHash('sha256')
  const { stream } = await openBlob(gitdir, oid)
  for await (const chunk of stream) hash.update(chunk as Buffer)
  const digest = hash.digest('hex')
  if (digests.size >= 1000) digests.delete(digests.keys().next().value as string)
  digests.set(key, digest)
  return digest
}

function readAhead(source: Readable, n: number): Promise<{ head: Buffer; stream: Readable }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let length = 0
    let ended = false
    const finish = () => {
      source.off('readable', onReadable)
      source.off('end', onEnd)
      source.off('error', reject)
      const first = Buffer.concat(chunks)
      const out = new PassThrough({ highWaterMark: 256 * 1024 })
      if (ended) out.end(first)
      else {
        out.write(first)
        source.once('error', (err) => out.destroy(err))
        out.once('close', () => source.destroy())
        source.pipe(out)
      }
      resolve({ head: first.subarray(0, n), stream: out })
    }
    const onReadable = () => {
      for (let c: Buffer | null; length < n && (c = source.read() as Buffer | null) !== null;) {
        chunks.push(c)
        length += c.length
      }
      if (length >= n) finish()
    }
    const onEnd = () => {
      ended = true
      finish()
    }
    source.on('readable', onReadable)
    source.once('end', onEnd)
    source.once('error', reject)
  })
}
