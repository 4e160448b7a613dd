// The backup archive's format: a tar whose first entry says what it is and whose last entry lists every file with its
// size and SHA-256, so a restore recognises a foreign tar at once and a truncated or altered one before it is used.
import { createHash } from 'node:crypto'
import type { ReadStream } from 'node:fs'
import { open, readdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { PassThrough, type Readable } from 'node:stream'
import type { Pack } from 'tar-stream'

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

/** Hidden from tests of the archive's shape: tar-stream loads with the first backup, not with the server. */
const tarStream = () => createRequire(import.meta.url)('tar-stream') as typeof import('tar-stream')

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT'

/** Writes the archive entry by entry, hashing each file as it goes into the tar; `finish` adds the manifest. */
export class ArchiveWriter {
  readonly out: Readable
  private readonly pack: Pack
  private readonly files: ManifestFile[] = []
  private stopped = false
  private bytes = 0

  constructor(private readonly onProgress?: (p: ArchiveProgress) => void) {
    this.pack = tarStream().pack()
    const out = new PassThrough({ highWaterMark: 1024 * 1024 })
    this.pack.once('error', (err: Error) => out.destroy(err))
    out.once('close', () => {
      this.stopped = true
      this.pack.destroy()
    })
    this.pack.pipe(out)
    this.out = out
  }

  /** True once the reader went away (a client that hung up): the caller stops walking. */
  get closed() {
    return this.stopped
  }

  json(name: string, value: unknown): Promise<void> {
    const body = Buffer.from(`${JSON.stringify(value, null, 2)}\n`)
    return new Promise((resolve, reject) => {
      this.pack.entry({ name, size: body.length, mode: 0o600, type: 'file' }, body, (err) => (err ? reject(err) : resolve()))
    })
  }

  /** Adds the file at `from` as `name`; one removed meanwhile is left out. Only the bytes it had when opened are read. */
  async file(from: string, name: string): Promise<void> {
    const handle = await open(from, 'r').catch((err) => (missing(err) ? null : Promise.reject(err)))
    if (!handle) return
    let body: ReadStream | undefined
    const hash = createHash('sha256')
    try {
      const info = await handle.stat()
      const header = { name, size: info.size, mode: info.mode & 0o777, mtime: info.mtime, type: 'file' as const }
      await new Promise<void>((resolve, reject) => {
        const done = (err?: Error | null) => (err ? reject(err) : resolve())
        if (info.size === 0) {
          this.pack.entry(header, Buffer.alloc(0), done)
          return
        }
        const entry = this.pack.entry(header, done)
        body = handle.createReadStream({ start: 0, end: info.size - 1, highWaterMark: 1024 * 1024 })
        body.on('data', (chunk) => hash.update(chunk))
        body.on('error', reject)
        body.pipe(entry)
      })
      this.files.push({ path: name, size: info.size, sha256: hash.digest('hex') })
      this.bytes += info.size
      this.onProgress?.({ files: this.files.length, bytes: this.bytes })
    } finally {
      // Once a read stream exists it owns the descriptor: it closes it when it ends or is destroyed.
      if (body) body.destroy()
      else await handle.close()
    }
  }

  directory(name: string, mode = 0o700) {
    this.pack.entry({ name, type: 'directory', mode })
  }

  /**
   * Every file under `from` as `name/…`, depth first and sorted; `skip` leaves out entries by their path below `from`
   * (`12`, `12/artifacts.zip`). Directories go in too, so empty ones (a repository's refs/heads) come back.
   */
  async tree(from: string, name: string, skip?: (path: string) => boolean, below = ''): Promise<void> {
    const entries = await readdir(from, { withFileTypes: true }).catch((err) => (missing(err) ? null : Promise.reject(err)))
    if (!entries) return
    this.directory(name)
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
    this.pack.finalize()
    return manifest
  }

  fail(err: Error) {
    this.out.destroy(err)
  }
}
