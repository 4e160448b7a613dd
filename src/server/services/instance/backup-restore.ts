// collab backup restore: an archive made by collab backup create becomes a new data directory, or nothing. It is
// extracted beside the target, every entry's path and every file's checksum checked and the database's integrity too,
// and only then renamed into place: a foreign, truncated, altered or too new archive leaves the target as it was.
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { chmod, mkdir, mkdtemp, readdir, rename, rm, rmdir, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { basename, dirname, join, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Header as Headers } from 'tar-stream'
import { CollabError } from '../../../core/errors.js'
import { databaseFacts } from '../../store/backup.js'
import { schemaVersion } from '../../store/db.js'
import {
  BACKUP_FORMAT, BACKUP_FORMAT_VERSION, HEADER_ENTRY, MANIFEST_ENTRY, PACK_TRAILER, isGitPack, lastBytes,
  type ArchiveProgress, type BackupHeader, type BackupManifest, type Checksum,
} from './backup-archive.js'

export interface RestoreSummary extends BackupHeader {
  data: string
  files: number
  bytes: number
}

const refuse = (message: string) => new CollabError('FAILED', message)

/** The target must not exist, or be an empty directory: a restore never mixes with data already there. */
async function checkTarget(target: string) {
  const info = await stat(target).catch(() => null)
  if (!info) return
  if (!info.isDirectory()) throw refuse(`${target} exists and is not a directory`)
  if ((await readdir(target)).length) throw refuse(`${target} is not empty: a restore makes a new data directory (give an absent or empty one)`)
}

/**
 * Why an entry may not be extracted, or null: only plain files and directories, under relative paths with no `..`,
 * empty, `.` or backslash segment, so nothing lands outside the directory or through a link.
 */
export function entryRefusal(h: Pick<Headers, 'name' | 'type'>): string | null {
  if (h.type !== 'file' && h.type !== 'directory') return `'${h.name}' is a ${h.type ?? 'special entry'}: a backup holds only files and directories`
  const name = h.name.replace(/\/$/, '')
  if (!name || name.startsWith('/') || /^[A-Za-z]:/.test(name)) return `'${h.name}' is an absolute path`
  if (name.includes('\\') || name.includes('\0')) return `'${h.name}' holds a backslash or NUL`
  if (name.split('/').some((s: string) => s === '..' || s === '.' || s === '')) return `'${h.name}' leaves the directory or is not a plain path`
  return null
}

function parseJson<T>(bytes: Buffer, what: string): T {
  try {
    return JSON.parse(bytes.toString('utf8')) as T
  } catch {
    throw refuse(`its ${what} is not JSON`)
  }
}

function checkHeader(header: BackupHeader) {
  if (header.format !== BACKUP_FORMAT) throw refuse('it is not a collab backup')
  if (!(header.format_version <= BACKUP_FORMAT_VERSION)) throw refuse(`its format (version ${header.format_version}) is newer than this collab reads (${BACKUP_FORMAT_VERSION}): upgrade collab`)
  if (!(header.schema_version <= schemaVersion())) {
    throw refuse(`it holds a database of schema version ${header.schema_version}, newer than this collab (${schemaVersion()}; collab ${header.collab_version} wrote it): upgrade collab`)
  }
}

/** What an extracted file turned out to be; `intact` is false for a git pack whose bytes do not give its own trailer. */
type Seen = { size: number; intact: boolean } & Checksum

interface Extracted { header: BackupHeader | null; manifest: BackupManifest | null; files: Map<string, Seen> }

const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/**
 * Writes one file entry, hashing it on the way: SHA-256, or for a git pack SHA-1 over all but its last 20 bytes, which
 * must be that SHA-1 (git's own check of a pack, as `git verify-pack` makes it).
 */
async function writeEntry(root: string, h: Headers, stream: Readable, pack: boolean): Promise<Seen> {
  const target = join(root, h.name)
  await mkdir(dirname(target), { recursive: true, mode: 0o700 })
  const hash = createHash(pack ? 'sha1' : 'sha256')
  const hashed = pack ? Math.max(0, (h.size ?? 0) - PACK_TRAILER) : Infinity
  let size = 0
  let tail = Buffer.alloc(0)
  stream.on('data', (chunk: Buffer) => {
    if (size < hashed) hash.update(size + chunk.length <= hashed ? chunk : chunk.subarray(0, hashed - size))
    if (pack) tail = lastBytes(tail, chunk)
    size += chunk.length
  })
  await pipeline(stream, createWriteStream(target, { mode: (h.mode ?? 0o600) & 0o700 || 0o600 }))
  const sum = hash.digest()
  if (!pack) return { size, intact: true, sha256: sum.toString('hex') }
  return { size, intact: size >= PACK_TRAILER && sum.equals(tail), pack_sha1: tail.toString('hex') }
}

async function handleEntry(root: string, got: Extracted, h: Headers, stream: Readable) {
  if (!got.header) {
    if (h.name !== HEADER_ENTRY) throw refuse(`it is not a collab backup (its first entry is '${h.name}', not ${HEADER_ENTRY})`)
    got.header = parseJson<BackupHeader>(await readAll(stream), HEADER_ENTRY)
    checkHeader(got.header)
    return
  }
  if (got.manifest) throw refuse(`it has an entry after its manifest ('${h.name}')`)
  const why = entryRefusal(h)
  if (why) throw refuse(`it holds an entry that may not be extracted: ${why}`)
  if (h.name === MANIFEST_ENTRY) {
    got.manifest = parseJson<BackupManifest>(await readAll(stream), MANIFEST_ENTRY)
    return
  }
  if (h.type === 'directory') {
    stream.resume()
    await mkdir(join(root, h.name), { recursive: true, mode: 0o700 })
    return
  }
  if (got.files.has(h.name)) throw refuse(`it holds '${h.name}' twice`)
  got.files.set(h.name, await writeEntry(root, h, stream, got.header.format_version >= 2 && isGitPack(h.name)))
}

async function extract(input: Readable, root: string): Promise<Extracted> {
  const extractor = (createRequire(import.meta.url)('tar-stream') as typeof import('tar-stream')).extract()
  const got: Extracted = { header: null, manifest: null, files: new Map() }
  const piping = pipeline(input, extractor)
  try {
    for await (const entry of extractor) await handleEntry(root, got, entry.header, entry as unknown as Readable)
    await piping
  } catch (err) {
    input.destroy()
    piping.catch(() => undefined)
    if (err instanceof CollabError) throw err
    throw refuse(got.header ? `it is not a complete tar archive (${(err as Error).message}): truncated?` : `it is not a collab backup (${(err as Error).message})`)
  }
  return got
}

/** Every file the manifest lists, with its size and checksum, and nothing else. */
const sumOf = (c: Checksum) => ('pack_sha1' in c ? `pack SHA-1 ${c.pack_sha1}` : `SHA-256 ${c.sha256}`)

function verify(got: Extracted): BackupManifest {
  const { header, manifest } = got
  if (!header) throw refuse('it is empty')
  if (!manifest) throw refuse('it ends before its manifest: the archive is truncated')
  if (manifest.schema_version !== header.schema_version || manifest.created_at !== header.created_at) throw refuse('its manifest does not match its header')
  const listed = new Set<string>()
  for (const f of manifest.files) {
    listed.add(f.path)
    const seen = got.files.get(f.path)
    if (!seen) throw refuse(`it lacks '${f.path}', which its manifest lists`)
    if (seen.size !== f.size || sumOf(seen) !== sumOf(f)) throw refuse(`'${f.path}' does not match its checksum`)
    if (!seen.intact) throw refuse(`'${f.path}' does not match its checksum: the git pack's content does not give the SHA-1 it ends with`)
  }
  for (const path of got.files.keys()) if (!listed.has(path)) throw refuse(`it holds '${path}', which its manifest does not list`)
  if (!got.files.has('collab.db')) throw refuse('it holds no database')
  return manifest
}

/**
 * Restores the tar `input` into `dir`: absent, or an empty directory. Throws (leaving `dir` as it was) when the target
 * is not empty or the archive is foreign, truncated, altered, or newer than this collab.
 */
export async function restoreBackup(input: Readable, dir: string, onProgress?: (p: ArchiveProgress) => void): Promise<RestoreSummary> {
  const target = resolve(dir)
  await checkTarget(target)
  await mkdir(dirname(target), { recursive: true })
  const temp = await mkdtemp(join(dirname(target), `.${basename(target)}.restore-`))
  try {
    const got = await extract(input, temp)
    const manifest = verify(got)
    const facts = databaseFacts(join(temp, 'collab.db'))
    if (facts.integrity !== 'ok') throw refuse(`its database fails SQLite's integrity check: ${facts.integrity}`)
    if (facts.schema !== manifest.schema_version) throw refuse(`its database has schema version ${facts.schema}, not the ${manifest.schema_version} its manifest says`)
    await chmod(temp, 0o700)
    await checkTarget(target)
    await rmdir(target).catch(() => undefined)
    await rename(temp, target)
    const bytes = manifest.files.reduce((n, f) => n + f.size, 0)
    onProgress?.({ files: manifest.files.length, bytes })
    const { files: _files, unrecognized: _unrecognized, ...header } = manifest
    return { ...header, data: target, files: manifest.files.length, bytes }
  } finally {
    await rm(temp, { recursive: true, force: true })
  }
}
