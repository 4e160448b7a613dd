// Backups the server keeps, as gitlab-backup writes into its backup_path: POST /admin/backups with store=true writes
// the archive into <data dir>/backups/, so a CLI on the same machine takes the file (a rename) instead of receiving
// every byte over a socket, which costs a copy on each side. A CLI elsewhere downloads it by name, then deletes it.
import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { chmod, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { CollabError } from '../../../core/errors.js'
import { backupStamp, STORED_BACKUP_NAME } from '../../../core/backup-names.js'
import type { RequestContext } from '../../context.js'
import { FileSink } from './backup-sink.js'
import { writeBackup } from './backup.js'

/** An archive being written: never a stored name, so it is not listed, read or moved before it is whole. */
const WRITING_PREFIX = '.writing-'

const storeOf = (ctx: RequestContext) => join(ctx.app.layout.root, 'backups')

/** collab-backup-20240102-030405-<16 hex>.tar, in UTC; the random part keeps two backups of one second apart. */
const nameAt = (now: Date) => `collab-backup-${backupStamp(now)}-${randomBytes(8).toString('hex')}.tar`

/** Archives being written by this process; others of that prefix are a stopped server's leftovers. */
const writing = new Set<string>()

async function removeLeftovers(dir: string) {
  for (const n of await readdir(dir)) {
    if (n.startsWith(WRITING_PREFIX) && !writing.has(join(dir, n))) await rm(join(dir, n), { force: true })
  }
}

export interface StoredBackup {
  name: string
  path: string
  size: number
  collab_version: string
  schema_version: number
  created_at: string
  source: string
  files: number
  data_bytes: number
}

/**
 * Writes the running server's backup into <data dir>/backups/ (0700; the file 0600) under a temporary name, renamed to
 * its own once whole, and answers where it is with what its manifest says.
 */
export async function storeBackup(ctx: RequestContext): Promise<StoredBackup> {
  const dir = storeOf(ctx)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  // mkdir leaves an existing directory's mode, and the umask may narrow a new one's: either way, the mode is set.
  await chmod(dir, 0o700)
  await removeLeftovers(dir)
  const name = nameAt(ctx.app.clock.now())
  const partial = join(dir, `${WRITING_PREFIX}${name}`)
  const path = join(dir, name)
  writing.add(partial)
  try {
    const handle = await open(partial, 'wx', 0o600)
    let manifest
    try {
      manifest = await writeBackup({ db: ctx.app.db, layout: ctx.app.layout, now: () => ctx.app.clock.now(), source: 'server' }, new FileSink(handle.fd))
    } finally {
      await handle.close()
    }
    await rename(partial, path)
    const { size } = await stat(path)
    const { collab_version, schema_version, created_at, source, files } = manifest
    return { name, path, size, collab_version, schema_version, created_at, source, files: files.length, data_bytes: files.reduce((n, f) => n + f.size, 0) }
  } catch (err) {
    await rm(partial, { force: true })
    throw err
  } finally {
    writing.delete(partial)
  }
}

/** GitLab's body for a missing thing; a name that is not one the server gives is missing too. */
const notStored = () => new CollabError('NOT_FOUND', '404 Not Found', { status: 404 })

/** A stored archive's bytes, read as they are sent from the file opened here (one deleted meanwhile is still read whole). */
export async function readStoredBackup(ctx: RequestContext, name: string): Promise<{ stream: Readable; size: number }> {
  if (!STORED_BACKUP_NAME.test(name)) throw notStored()
  const handle = await open(join(storeOf(ctx), name), 'r').catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'ENOENT' ? notStored() : err
  })
  const info = await handle.stat()
  if (!info.isFile()) {
    await handle.close()
    throw notStored()
  }
  return { stream: handle.createReadStream({ highWaterMark: 1024 * 1024 }), size: info.size }
}

export async function deleteStoredBackup(ctx: RequestContext, name: string): Promise<void> {
  if (!STORED_BACKUP_NAME.test(name)) throw notStored()
  await unlink(join(storeOf(ctx), name)).catch((err: NodeJS.ErrnoException) => {
    // A directory of that name is not a stored archive either.
    if (err.code === 'ENOENT' || err.code === 'EISDIR') throw notStored()
    throw err
  })
}
