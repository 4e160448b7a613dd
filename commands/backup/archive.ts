// What collab backup reads from an archive as it passes: its header and manifest (the first and last entries), so
// `create` knows the archive arrived whole and can report what it holds without reading it again.
import { Transform } from 'node:stream'
import { failure } from '../../src/cli/errors.js'
import type { IO } from '../../src/cli/io.js'
import type { BackupHeader, BackupManifest } from '../../src/server/backup.js'

/** The names of the first and last entries (src/server/services/instance/backup-archive.ts writes them). */
const HEADER_ENTRY = 'collab-backup.json'
const MANIFEST_ENTRY = 'manifest.json'

export interface Watched {
  /** Bytes of the tar that went through. */
  bytes: number
  header?: BackupHeader
  manifest?: BackupManifest
}

const BLOCK = 512

/** A tar header's octal number field (GNU's base-256 form for sizes past 8 GiB too). */
function number(field: Buffer): number {
  if (field[0] & 0x80) return field.subarray(1).reduce((n, byte) => n * 256 + byte, field[0] & 0x7f)
  return parseInt(field.toString('ascii').replace(/\0.*$/s, '').trim() || '0', 8)
}

/**
 * Reads along the tar's headers as its bytes pass (no copy of the data, which a tar parser would make): the first and
 * last entries, small JSON files, are kept; `watched.manifest` is set once the archive ended whole. `see` takes each
 * chunk in order and throws on a header that is not JSON where the format says it is.
 */
export function watchArchive(): { see: (chunk: Buffer) => void; watched: Watched } {
  const watched: Watched = { bytes: 0 }
  let header = Buffer.alloc(0)
  /** Bytes of the current entry's data (with its padding) still to come. */
  let skip = 0
  let keep: { name: string; size: number; chunks: Buffer[] } | null = null
  let ended = false
  const finishEntry = () => {
    if (!keep) return
    const value = JSON.parse(Buffer.concat(keep.chunks).subarray(0, keep.size).toString('utf8'))
    if (keep.name === HEADER_ENTRY) watched.header = value
    else watched.manifest = value
    keep = null
  }
  const see = (chunk: Buffer) => {
    watched.bytes += chunk.length
    let at = 0
    while (at < chunk.length && !ended) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - at)
        // A copy: the receiver reuses its read buffer once `see` returns.
        if (keep) keep.chunks.push(Buffer.from(chunk.subarray(at, at + n)))
        skip -= n
        at += n
        if (skip === 0) finishEntry()
        continue
      }
      const n = Math.min(BLOCK - header.length, chunk.length - at)
      header = Buffer.concat([header, chunk.subarray(at, at + n)])
      at += n
      if (header.length < BLOCK) continue
      const block = header
      header = Buffer.alloc(0)
      if (block.every((b) => b === 0)) {
        ended = true
        continue
      }
      const size = number(block.subarray(124, 136))
      const name = block.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '')
      const type = String.fromCharCode(block[156] || 0x30)
      skip = Math.ceil(size / BLOCK) * BLOCK
      keep = type === '0' && (name === HEADER_ENTRY || name === MANIFEST_ENTRY) ? { name, size, chunks: [] } : null
      if (skip === 0) finishEntry()
    }
  }
  return { see, watched }
}

/** `see` as a stream that passes every chunk on, for the archive's way through a compressor or to stdout. */
export const seeing = (see: (chunk: Buffer) => void) => new Transform({
  readableHighWaterMark: 1024 * 1024,
  writableHighWaterMark: 1024 * 1024,
  transform(chunk: Buffer, _encoding, callback) {
    try {
      see(chunk)
    } catch (err) {
      return callback(err as Error)
    }
    callback(null, chunk)
  },
})

/** The manifest, or the failure of an archive that stopped before its end. */
export function completeManifest(watched: Watched): BackupManifest {
  if (!watched.header || !watched.manifest) throw failure('the backup archive ended before its manifest: it is incomplete (see the server log)')
  return watched.manifest
}

const MB = 1024 * 1024
export const size = (n: number) => (n >= MB ? `${(n / MB).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`)

/** The summary printed with --json by both verbs. */
export function summaryOf(m: BackupManifest) {
  return {
    collab_version: m.collab_version, schema_version: m.schema_version, created_at: m.created_at, source: m.source,
    files: m.files.length, data_bytes: m.files.reduce((n, f) => n + f.size, 0),
  }
}

export const printJson = (io: IO, value: unknown) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
