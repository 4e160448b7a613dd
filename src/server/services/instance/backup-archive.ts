// The backup archive's format: a tar whose first entry says what it is and whose last entry lists every file with its
// size and checksum, so a restore recognises a foreign tar at once and a truncated or altered one before it is used.
import { createHash, type Hash } from 'node:crypto'
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { open, readdir, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import type { ArchiveSink } from './backup-sink.js'
import { entryHeader, padding, trailer } from './backup-tar.js'

export const BACKUP_FORMAT = 'collab-backup'
/** 2: git packs are listed by their own trailing SHA-1, not a SHA-256 (see isGitPack); a collab that reads only 1 says to upgrade. */
export const BACKUP_FORMAT_VERSION = 2
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

/**
 * A file's line in the manifest: its SHA-256, or for a git pack the SHA-1 that git wrote as the pack's last 20 bytes
 * over all the bytes before them. That checksum already covers the pack's every byte, so the backup takes it as read
 * instead of hashing the largest files of an instance again; a restore recomputes it and compares.
 */
export type ManifestFile = { path: string; size: number } & Checksum

export type Checksum = { sha256: string } | { pack_sha1: string }

/** A pack of a SHA-1 repository (its name is 40 hex digits; a SHA-256 repository's trailer is 32 bytes and goes by SHA-256). */
const GIT_PACK = /^repositories\/\d+(\.wiki)?\.git\/objects\/pack\/pack-[0-9a-f]{40}\.pack$/

/** Whether the archive's file `path` is listed by its pack checksum (format 2 on); decided by the path alone, on both sides. */
export const isGitPack = (path: string) => GIT_PACK.test(path)

/** The length of a SHA-1 pack's trailer. */
export const PACK_TRAILER = 20

/** The last PACK_TRAILER bytes of `before` followed by `chunk`, copied (the chunk's buffer may be reused). */
export const lastBytes = (before: Buffer, chunk: Buffer) =>
  Buffer.from(chunk.length >= PACK_TRAILER ? chunk.subarray(chunk.length - PACK_TRAILER) : Buffer.concat([before, chunk]).subarray(-PACK_TRAILER))

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

/** Chunk buffers kept for reuse: those in flight (reads ahead, a sink's writes) and one more. */
const POOLED = 8

/** Chunk buffers given back by a sink once it was done with them (see ArchiveSink.write's `release`). */
class BufferPool {
  private readonly free: Buffer[] = []

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(CHUNK)
  }

  give(buffer: Buffer) {
    if (this.free.length < POOLED) this.free.push(buffer)
  }
}

/** A chunk of a file and the way to give its memory back. */
interface Chunk { bytes: Buffer; release: () => void }

/**
 * The first `size` bytes of an open file in chunks, read ahead; a file that came up short is filled with zeros. A
 * read's failure reaches the caller when it asks for that chunk (and is never left unhandled if it stops before).
 */
function readAhead(handle: FileHandle, size: number, pool: BufferPool) {
  const pending: Promise<Chunk>[] = []
  let at = 0
  const issue = () => {
    if (at >= size) return
    const want = Math.min(CHUNK, size - at)
    const buffer = pool.take()
    const chunk = buffer.subarray(0, want)
    const read = handle.read(chunk, 0, want, at).then(({ bytesRead }) => ({
      bytes: bytesRead < want ? chunk.fill(0, bytesRead) : chunk, release: () => pool.give(buffer),
    }))
    read.catch(() => undefined)
    pending.push(read)
    at += want
  }
  for (let i = 0; i < READS_AHEAD; i++) issue()
  return {
    next(): Promise<Chunk | null> {
      const chunk = pending.shift()
      issue()
      return chunk ?? Promise.resolve(null)
    },
  }
}

/**
 * Files up to this size are read with synchronous calls: a repository's loose objects, refs and hooks, uploads. Four
 * round trips through libuv's threads (open, stat, read, close) for each of thousands of such files made a backup of
 * 5,000 loose objects take 7-10 s (2 s of CPU) on a loaded machine; read this way, 3-4 s (0.75 s). tar takes 0.2-0.6 s.
 */
const SMALL_FILE = 256 * 1024
/** Small files read between two turns of the event loop, so requests are served while a backup walks many of them. */
const SMALL_FILES_A_TURN = 64

/** The stat and content of the open file, or null when it is larger than SMALL_FILE; zeros where it came up short. */
function readSmall(fd: number): { info: Stats; body: Buffer } | null {
  const info = fstatSync(fd)
  if (info.size > SMALL_FILE) return null
  const body = Buffer.allocUnsafe(info.size)
  let got = 0
  while (got < info.size) {
    const n = readSync(fd, body, got, info.size - got, got)
    if (n === 0) break
    got += n
  }
  return { info, body: got < info.size ? body.fill(0, got) : body }
}

const sha256Sum = (hash: Hash): Checksum => ({ sha256: hash.digest('hex') })
const packSum = (trailer: Buffer): Checksum => ({ pack_sha1: trailer.toString('hex') })

/** Writes the archive entry by entry into a sink, checksumming each file as it goes; `finish` adds the manifest. */
export class ArchiveWriter {
  private readonly files: ManifestFile[] = []
  private written = 0
  /** Small files read since the event loop last had a turn. */
  private sinceTurn = 0
  private readonly pool = new BufferPool()

  constructor(private readonly sink: ArchiveSink, private readonly onProgress?: (p: ArchiveProgress) => void) {}

  /** True once the reader went away (a client that hung up): the caller stops walking. */
  get closed() {
    return this.sink.closed
  }

  /** Waits while the reader is behind; a reader that went away ends the walk. */
  private put(chunk: Buffer, release?: () => void): Promise<void> {
    return this.sink.write(chunk, release)
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
    await this.put(padding(body.length))
    this.record(name, body.length, sha256Sum(hash))
  }

  /**
   * Adds the file at `from` as `name`; one removed meanwhile is left out. Only the bytes it had when opened are read
   * (a log appended meanwhile), and a file cut shorter meanwhile is filled with zeros, so the header's size holds.
   */
  async file(from: string, name: string): Promise<void> {
    let fd: number
    try {
      fd = openSync(from, 'r')
    } catch (err) {
      if (missing(err)) return
      throw err
    }
    let small: { info: Stats; body: Buffer } | null
    try {
      small = readSmall(fd)
    } finally {
      closeSync(fd)
    }
    if (!small) return this.large(from, name)
    const { info, body } = small
    await this.put(Buffer.concat([entryHeader(name, 'file', info.size, info.mode, info.mtime), body, padding(info.size)]))
    this.record(name, info.size, isGitPack(name) ? packSum(lastBytes(Buffer.alloc(0), body)) : sha256Sum(createHash('sha256').update(body)))
    if (++this.sinceTurn >= SMALL_FILES_A_TURN) {
      this.sinceTurn = 0
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  /** A file past SMALL_FILE, read with libuv's threads while its previous chunk is hashed and sent. */
  private async large(from: string, name: string): Promise<void> {
    const handle = await open(from, 'r').catch((err) => (missing(err) ? null : Promise.reject(err)))
    if (!handle) return
    try {
      const info = await handle.stat()
      await this.put(entryHeader(name, 'file', info.size, info.mode, info.mtime))
      const pack = isGitPack(name)
      const hash = pack ? null : createHash('sha256')
      let tail = Buffer.alloc(0)
      const chunks = readAhead(handle, info.size, this.pool)
      for (let chunk = await chunks.next(); chunk; chunk = await chunks.next()) {
        if (hash) hash.update(chunk.bytes)
        else tail = lastBytes(tail, chunk.bytes)
        await this.put(chunk.bytes, chunk.release)
      }
      await this.put(padding(info.size))
      this.record(name, info.size, hash ? sha256Sum(hash) : packSum(tail))
    } finally {
      await handle.close()
    }
  }

  /** A file's line in the manifest. */
  private record(name: string, size: number, checksum: Checksum) {
    this.files.push({ path: name, size, ...checksum })
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
      if (this.closed) return
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
    await this.sink.end()
    return manifest
  }
}
