// The backup archive's format: a tar whose first entry says what it is and whose last entry lists every file with its
// size and SHA-256, so a restore recognises a foreign tar at once and a truncated or altered one before it is used.
import { createHash } from 'node:crypto'
import { open, readdir } from 'node:fs/promises'
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

/** Writes the archive entry by entry, hashing each file as it goes into the tar; `finish` adds the manifest. */
export class ArchiveWriter {
  readonly out: PassThrough
  private readonly files: ManifestFile[] = []
  private stopped = false
  private bytes = 0

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

  /**
   * Adds the file at `from` as `name`; one removed meanwhile is left out. Only the bytes it had when opened are read
   * (a log appended meanwhile), and a file cut shorter meanwhile is filled with zeros, so the header's size holds.
   */
  async file(from: string, name: string): Promise<void> {
    const handle = await open(from, 'r').catch((err) => (missing(err) ? null : Promise.reject(err)))
    if (!handle) return
    const hash = createHash('sha256')
    try {
      const info = await handle.stat()
      await this.put(entryHeader(name, 'file', info.size, info.mode, info.mtime))
      for (let at = 0; at < info.size;) {
        const want = Math.min(CHUNK, info.size - at)
        const chunk = Buffer.allocUnsafe(want)
        const { bytesRead } = await handle.read(chunk, 0, want, at)
        if (bytesRead < want) chunk.fill(0, bytesRead)
        hash.update(chunk)
        await this.put(chunk)
        at += want
      }
      await this.put(padding(info.size))
      this.files.push({ path: name, size: info.size, sha256: hash.digest('hex') })
      this.bytes += info.size
      this.onProgress?.({ files: this.files.length, bytes: this.bytes })
    } finally {
      await handle.close()
    }
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
