// collab backup create, the server's side: a consistent copy of the whole data directory as one streamed tar.
// Under every repository's lock at once (pushes, API commits and merges wait; issue writes go on), each repository is
// linked into a staging directory and the database copied: the refs in the archive are the refs the database knew.
// The locks are released before a byte is archived; uploads, CI files and packages are read as they are.
import { randomUUID } from 'node:crypto'
import { readdirSync, rmdirSync, unlinkSync } from 'node:fs'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import type { DataLayout } from '../../../core/paths.js'
import { VERSION } from '../../../core/version.js'
import { linkRepository, unfinishedGitEntry, withRepoLocks } from '../../git/backup.js'
import { copyDatabase, fileOwnersOf, imageOfDatabase, schemaOf, type FileOwners } from '../../store/backup.js'
import type { Db } from '../../store/db.js'
import type { RequestContext } from '../../context.js'
import { StreamSink, type ArchiveSink } from './backup-sink.js'
import { ArchiveWriter, HEADER_ENTRY, BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type ArchiveProgress, type BackupHeader, type BackupManifest } from './backup-archive.js'

/** What a backup reads: the data directory and an open database (the server's own, or a stopped server's). */
export interface BackupSource {
  db: Db
  layout: DataLayout
  now: () => Date
  source: BackupHeader['source']
  onProgress?: (p: ArchiveProgress) => void
}

/** The data directory's top-level entries a backup holds, in the archive's order after the database. */
export const BACKED_UP = ['collab.db', 'secrets.json', 'repositories', 'uploads', 'artifacts', 'traces', 'packages'] as const

/**
 * Entries a backup leaves out, each remade by the server: the database's log (its content is in the copy), the CI
 * runner's working directories, the archive cache and the shared git hooks directory; and backups' own staging, and
 * the archives the server keeps (a backup never holds the ones before it).
 */
export const NOT_BACKED_UP = ['collab.db-wal', 'collab.db-shm', 'collab.db-journal', 'builds', 'cache', 'git-hooks', 'backups'] as const
const STAGING_PREFIX = '.backup-'

/** Files being received (an upload's temporary directory) are not data yet. */
const receiving = (path: string) => path.startsWith('.incoming-')

const beyond = (id: string | undefined, highest: number) => id !== undefined && /^\d+$/.test(id) && Number(id) > highest

/**
 * Files whose row the database copy does not have (a job or package file made while the archive was written) are left
 * out: ids are never reused, so a restored server that gives the id out again must not find another row's files.
 */
const newerThanCopy: Record<'uploads' | 'artifacts' | 'traces' | 'packages', (o: FileOwners) => (path: string) => boolean> = {
  uploads: () => receiving,
  artifacts: (o) => (path) => receiving(path) || beyond(path.split('/')[0], o.job),
  traces: (o) => (path) => beyond(/^(\d+)\.(log|held)$/.exec(path)?.[1], o.job),
  packages: (o) => (path) => {
    const [, pkg, file] = path.split('/')
    return receiving(path) || beyond(pkg, o.package) || beyond(file, o.packageFile)
  },
}

/** A project's repository or wiki, as repositories/ names them; a fork's copy in progress is not one yet. */
const REPOSITORY = /^\d+(\.wiki)?\.git$/

/** What the staging would not link, left out where repositories are read in place: other entries, git's unfinished files. */
const inPlace = (path: string) => {
  const names = path.split('/')
  return names.length === 1 ? !REPOSITORY.test(path) : unfinishedGitEntry(names[names.length - 1])
}

const listRepositories = async (root: string) =>
  (await readdir(root).catch(() => [] as string[])).filter((n) => REPOSITORY.test(n)).sort()

/**
 * Removes a staging directory with synchronous calls and a turn of the event loop every so many: one round trip
 * through libuv's threads per link (thousands for a repository of loose objects) kept a backup's process alive for
 * seconds after its archive ended.
 */
async function removeStaged(dir: string, removed = { entries: 0 }): Promise<void> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) await removeStaged(join(dir, e.name), removed)
    else unlinkSync(join(dir, e.name))
    if (++removed.entries % 256 === 0) await new Promise((resolve) => setImmediate(resolve))
  }
  rmdirSync(dir)
}

const removeStaging = (dir: string) => removeStaged(dir).catch(() => rm(dir, { recursive: true, force: true }))

/** Backups staged here and never cleaned up (a server stopped mid-way) are removed by the next one. */
const staging = new Set<string>()

async function removeStaleStaging(root: string) {
  for (const name of await readdir(root)) {
    if (name.startsWith(STAGING_PREFIX) && !staging.has(join(root, name))) await removeStaging(join(root, name))
  }
}

/** The database's part of a backup: its image in memory, or a copy in the staging directory when it is too large for one. */
interface DatabaseCopy { image: Buffer | null; schema: number; owners: FileOwners }

async function copyOf(db: Db, dir: string): Promise<DatabaseCopy> {
  const image = imageOfDatabase(db)
  if (image) return { image: image.bytes, schema: image.schema, owners: image.owners }
  const file = join(dir, 'collab.db')
  await copyDatabase(db, file)
  return { image: null, schema: schemaOf(file), owners: fileOwnersOf(file) }
}

/**
 * Links every repository and copies the database, all under the repositories' locks. A repository made while the
 * database was being copied (a new project) is linked afterwards under its own lock, so no project of the copy lacks one.
 * A stopped server's repositories are not linked: nothing writes to them (its database lock says no server runs), so
 * they are read where they are (see inPlace).
 */
async function stage(src: BackupSource, dir: string): Promise<DatabaseCopy> {
  if (src.source === 'directory') return copyOf(src.db, dir)
  const repos = src.layout.repositories
  const first = await listRepositories(repos)
  const copy = await withRepoLocks(first.map((n) => join(repos, n)), async () => {
    for (const name of first) await linkRepository(join(repos, name), join(dir, 'repositories', name))
    return copyOf(src.db, dir)
  })
  const later = (await listRepositories(repos)).filter((n) => !first.includes(n))
  await withRepoLocks(later.map((n) => join(repos, n)), async () => {
    for (const name of later) await linkRepository(join(repos, name), join(dir, 'repositories', name))
  })
  return copy
}

const KNOWN = new Set<string>([...BACKED_UP, ...NOT_BACKED_UP])

/** Whether a top-level entry of the data directory is one collab knows (backed up, remade, or a backup's staging). */
export const knownDataEntry = (name: string) => KNOWN.has(name) || name.startsWith(STAGING_PREFIX)

const unrecognizedEntries = async (root: string) => (await readdir(root)).filter((n) => !knownDataEntry(n)).sort()

async function writeArchive(src: BackupSource, dir: string, db: DatabaseCopy, header: BackupHeader, w: ArchiveWriter): Promise<BackupManifest> {
  const { layout } = src
  await w.json(HEADER_ENTRY, header)
  if (db.image) await w.buffer('collab.db', db.image, 0o600, src.now())
  else await w.file(join(dir, 'collab.db'), 'collab.db')
  await w.file(layout.secrets, 'secrets.json')
  if (src.source === 'directory') await w.tree(layout.repositories, 'repositories', inPlace)
  else await w.tree(join(dir, 'repositories'), 'repositories')
  const { owners } = db
  for (const name of ['uploads', 'artifacts', 'traces', 'packages'] as const) await w.tree(layout[name], name, newerThanCopy[name](owners))
  const unrecognized = await unrecognizedEntries(layout.root)
  for (const name of unrecognized) {
    const info = await stat(join(layout.root, name)).catch(() => null)
    if (info?.isDirectory()) await w.tree(join(layout.root, name), name)
    else if (info?.isFile()) await w.file(join(layout.root, name), name)
  }
  return w.finish(header, unrecognized)
}

/**
 * Writes the backup into `sink`: the consistent part (repositories and database) is staged before this resolves; the
 * rest is read as the sink takes it. The promise returned resolves once the archive is written whole, or rejects (the
 * sink failed with it); the staging directory goes either way.
 */
async function startBackup(src: BackupSource, sink: ArchiveSink): Promise<{ written: Promise<BackupManifest> }> {
  const dir = join(src.layout.root, `${STAGING_PREFIX}${randomUUID()}`)
  staging.add(dir)
  const cleanup = () => {
    staging.delete(dir)
    return removeStaging(dir)
  }
  let db: DatabaseCopy
  try {
    await removeStaleStaging(src.layout.root)
    await mkdir(dir, { mode: 0o700 })
    db = await stage(src, dir)
  } catch (err) {
    await cleanup()
    throw err
  }
  const header: BackupHeader = {
    format: BACKUP_FORMAT, format_version: BACKUP_FORMAT_VERSION, collab_version: VERSION,
    schema_version: db.schema, created_at: src.now().toISOString(), source: src.source,
  }
  const written = writeArchive(src, dir, db, header, new ArchiveWriter(sink, src.onProgress)).catch(async (err: Error) => {
    sink.fail(err)
    await sink.end().catch(() => undefined)
    throw err
  }).finally(cleanup)
  return { written }
}

/** The backup as a tar stream, read as it is consumed; a reader that goes away stops it. */
export async function createBackup(src: BackupSource): Promise<Readable> {
  const sink = new StreamSink()
  const { written } = await startBackup(src, sink)
  written.catch(() => undefined)
  return sink.out
}

/** The backup written into `sink` (an open file): resolves with its manifest once it is there whole. */
export async function writeBackup(src: BackupSource, sink: ArchiveSink): Promise<BackupManifest> {
  return (await startBackup(src, sink)).written
}

/** The running server's backup, asked for by an administrator (the endpoint's rule). */
export const backupOfServer = (ctx: RequestContext) =>
  createBackup({ db: ctx.app.db, layout: ctx.app.layout, now: () => ctx.app.clock.now(), source: 'server' })
