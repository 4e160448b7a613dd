// The backup archive's format: a tar whose first entry says what it is and whose last entry lists every file with its
// size and SHA-256, so a restore recognises a foreign tar at once and a truncated or altered one before it is used.
import { createHash, type Hash } from 'node:crypto'
import { open, readdir, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { entryHeader, padding, trailer } from './backup-tar.js'

export const BACKUP_FORMAT = 'collab-backup'
export const BACKUP_FORMAT_VERSION = 1
/** The first entry of every archive. */
export const HEADER_ENTRY = 'collab-backup.json'
/** The last entry of every archive. */
export const MANIFEST_ENTRY = 'manifest.json'

export interface BackupHeader {
  format: typeof BACKUP_FORMAT
  format_version: number
  collab_version: string
  /** The database's schema version (its latest migration): a collab older than this cannot restore it. */
  schema_version: number
  created_at: string
  /** `server` when a running server wrote it, `directory` when read from a stopped server's data directory. */
  source: 'server' | 'directory'
}

export interface ManifestFile { path: string; size: number; sha256: string }

export interface BackupManifest extends BackupHeader {
  files: ManifestFile[]
  /** Top-level entries of the data directory that collab does not know; copied as they are. */
  unrecognized: string[]
}

export interface ArchiveProgress { files: number; bytes: number }

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT'

const CHUNK = 1024 * 1024
/** Reads in flight ahead of the chunk being hashed and sent: the disk (libuv's threads) works while the hash runs. */
const READS_AHEAD = 2

/**
 * The first `size` bytes of an open file in chunks, read ahead; a file that came up short is filled with zeros. A
 * read's failure reaches the caller when it asks for that chunk (and is never left unhandled if it stops before).
 */
function readAhead(handle: FileHandle, size: number) {
  const pending: Promise<Buffer>[] = []
  let at = 0
  const issue = () => {
    if (at >= size) return
    const want = Math.min(CHUNK, size - at)
    const chunk = Buffer.allocUnsafe(want)
    const read = handle.read(chunk, 0, want, at).then(({ bytesRead }) => (bytesRead < want ? chunk.fill(0, bytesRead) : chunk))
    read.catch(() => undefined)
    pending.push(read)
    at += want
  }
  for (let i = 0; i < READS_AHEAD; i++) issue()
  return {
    next(): Promise<Buffer | null> {
      const chunk = pending.shift()
      issue()
      return chunk ?? Promise.resolve(null)
    },
  }
}

/** Writes the archive entry by entry, hashing each file as it goes into the tar; `finish` adds the manifest. */
export class ArchiveWriter {
  readonly out: PassThrough
  private readonly files: ManifestFile[] = []
  private stopped = false
  private written = 0

  constructor(private readonly onProgress?: (p: ArchiveProgress) => void) {
    this.out = new PassThrough({ highWaterMark: CHUNK })
    this.out.once('close', () => (this.stopped = true))
  }

  /** True once the reader went away (a client that hung up): the caller stops walking. */
  get closed() {
    return this.stopped
  }

  /** Waits while the reader is behind; a reader that went away ends the walk. */
  private async put(chunk: Buffer): Promise<void> {
    if (this.stopped) throw new Error('the backup was not read to its end')
    if (this.out.write(chunk)) return
    await new Promise<void>((resolve) => {
      const done = () => {
        this.out.off('drain', done).off('close', done)
        resolve()
      }
      this.out.once('drain', done).once('close', done)
    })
  }

  async json(name: string, value: unknown): Promise<void> {
    const body = Buffer.from(`${JSON.stringify(value, null, 2)}\n`)
    await this.put(Buffer.concat([entryHeader(name, 'file', body.length, 0o600, new Date(0)), body, padding(body.length)]))
  }

  /** Adds `body` (bytes already in memory, such as the database's image) as the file `name`. */
  async buffer(name: string, body: Buffer, mode: number, mtime: Date): Promise<void> {
    await this.put(entryHeader(name, 'file', body.length, mode, mtime))
    const hash = createHash('sha256')
    for (let at = 0; at < body.length; at += CHUNK) {
      const chunk = body.subarray(at, at + CHUNK)
      hash.update(chunk)
      await this.put(chunk)
    }
    await this.ended(name, body.length, hash)
  }

  /**
   * Adds the file at `from` as `name`; one removed meanwhile is left out. Only the bytes it had when opened are read
   * (a log appended meanwhile), and a file cut shorter meanwhile is filled with zeros, so the header's size holds.
   */
  async file(from: string, name: string): Promise<void> {
    const handle = await open(from, 'r').catch((err) => (missing(err) ? null : Promise.reject(err)))
    if (!handle) return
    try {
      const info = await handle.stat()
      await this.put(entryHeader(name, 'file', info.size, info.mode, info.mtime))
      const hash = createHash('sha256')
      const chunks = readAhead(handle, info.size)
      for (let chunk = await chunks.next(); chunk; chunk = await chunks.next()) {
        hash.update(chunk)
        await this.put(chunk)
      }
      await this.ended(name, info.size, hash)
    } finally {
      await handle.close()
    }
  }

  /** An entry's padding, then its line in the manifest. */
  private async ended(name: string, size: number, hash: Hash) {
    await this.put(padding(size))
    this.files.push({ path: name, size, sha256: hash.digest('hex') })
    this.written += size
    this.onProgress?.({ files: this.files.length, bytes: this.written })
  }

  directory(name: string, mode = 0o700) {
    return this.put(entryHeader(name, 'directory', 0, mode, new Date(0)))
  }

  /**
   * Every file under `from` as `name/…`, depth first and sorted; `skip` leaves out entries by their path below `from`
   * (`12`, `12/artifacts.zip`). Directories go in too, so empty ones (a repository's refs/heads) come back.
   */
  async tree(from: string, name: string, skip?: (path: string) => boolean, below = ''): Promise<void> {
    const entries = await readdir(from, { withFileTypes: true }).catch((err) => (missing(err) ? null : Promise.reject(err)))
    if (!entries) return
    await this.directory(name)
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (this.stopped) return
      const path = below ? `${below}/${e.name}` : e.name
      if (skip?.(path)) continue
      if (e.isDirectory()) await this.tree(join(from, e.name), `${name}/${e.name}`, skip, path)
      else if (e.isFile()) await this.file(join(from, e.name), `${name}/${e.name}`)
    }
  }

  /** Ends the archive with its manifest. */
  async finish(header: BackupHeader, unrecognized: string[]): Promise<BackupManifest> {
    const manifest: BackupManifest = { ...header, files: this.files, unrecognized }
    await this.json(MANIFEST_ENTRY, manifest)
    await this.put(trailer())
    this.out.end()
    return manifest
  }

  fail(err: Error) {
    this.out.destroy(err)
  }
}
