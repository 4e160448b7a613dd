// What collab backup reads from an archive as it passes: its header and manifest (the first and last entries), so
// `create` knows the archive arrived whole and can report what it holds without reading it again.
import { Transform } from 'node:stream'
import { failure } from '../../src/cli/errors.js'
import type { IO } from '../../src/cli/io.js'
import type { BackupHeader, BackupManifest } from '../../src/server/backup.js'

/** The names of the first and last entries (src/server/services/backup-archive.ts writes them). */
const HEADER_ENTRY = 'collab-backup.json'
const MANIFEST_ENTRY = 'manifest.json'

export interface Watched {
  /** Bytes of the tar that went through. */
  bytes: number
  header?: BackupHeader
  manifest?: BackupManifest
}

/**
 * Passes the tar on unchanged while a tar parser reads along; `watched.manifest` is set once the archive ended whole.
 * tar-stream loads only here, with the backup, not with every command.
 */
export async function watchArchive(): Promise<{ stream: Transform; watched: Watched }> {
  const extract = (await import('tar-stream')).default.extract()
  const watched: Watched = { bytes: 0 }
  extract.on('entry', (header, body, next) => {
    const json = header.name === HEADER_ENTRY || header.name === MANIFEST_ENTRY
    const chunks: Buffer[] = []
    body.on('data', (chunk: unknown) => {
      if (json) chunks.push(chunk as Buffer)
    })
    body.on('end', () => {
      if (header.name === HEADER_ENTRY) watched.header = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      if (header.name === MANIFEST_ENTRY) watched.manifest = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      next()
    })
  })
  const done = new Promise<void>((resolve, reject) => {
    extract.on('finish', resolve)
    extract.on('error', reject)
  })
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      watched.bytes += chunk.length
      if (extract.write(chunk)) callback(null, chunk)
      else extract.once('drain', () => callback(null, chunk))
    },
    flush(callback) {
      ;(extract as unknown as { end(): void }).end()
      done.then(() => callback(), callback)
    },
  })
  return { stream, watched }
}

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
