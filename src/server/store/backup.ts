// The database's part of a backup: an online copy through SQLite's backup API, a stopped server's database opened
// without changing it, and the facts a restore checks in a copy (schema version, integrity).
import Database from 'better-sqlite3'
// @ts-expect-error: better-sqlite3's internals have no types; see nativeOf.
import { cppdb } from 'better-sqlite3/lib/util.js'
import { CollabError } from '../../core/errors.js'
import type { Db } from './db.js'
import { commitGroup } from './writes.js'

/** About 8 MB a step (4 KiB pages): each step holds the event loop for a few milliseconds. */
const PAGES_PER_STEP = 2048

interface NativeBackup {
  transfer(pages: number): { totalPages: number; remainingPages: number }
  close(): void
}
interface NativeDatabase { backup(db: Db, attached: string, file: string, unlinkOnFailure: boolean): NativeBackup }

/**
 * better-sqlite3's own handle of the connection (lib/util.js's `cppdb` symbol, better-sqlite3 12). Its `db.backup()`
 * steps on timers of its own, so a request could open the group transaction just before a step: SQLite then answers
 * busy, and a busy first step is taken for "nothing left to copy" and ends with no file. Stepping here instead lets each
 * step follow the group's commit in the same turn of the event loop.
 */
function nativeOf(db: Db): NativeDatabase {
  const native = (db as unknown as Record<symbol, NativeDatabase | undefined>)[cppdb as symbol]
  if (typeof native?.backup !== 'function') throw new Error('better-sqlite3 changed: its connection handle has no backup()')
  return native
}

/**
 * Copies the live database into `file` (SQLite's online backup) while requests go on writing between steps. SQLite
 * brings the copy up to date with every write made through this connection meanwhile, so the copy is the database as
 * committed when the last step ran. The connection's group transaction (store/writes.ts) is committed just before each
 * step: a step finds the source busy while a write transaction is open.
 */
export async function copyDatabase(db: Db, file: string): Promise<void> {
  const backup = nativeOf(db).backup(db, 'main', file, true)
  try {
    for (;;) {
      commitGroup(db)
      const { totalPages, remainingPages } = backup.transfer(PAGES_PER_STEP)
      if (totalPages > 0 && remainingPages === 0) return
      await new Promise((resolve) => setImmediate(resolve))
    }
  } finally {
    backup.close()
  }
}

/**
 * Up to this size the database is copied in one read of its pages into memory (a few milliseconds for the usual few
 * MB, where the stepped copy above writes and syncs a file page by page); past it, the event loop would be held and the
 * memory grow with the database, so it is copied in steps.
 */
const IMAGE_LIMIT = 32 * 1024 * 1024

/** A consistent copy of the database in memory, with the facts a backup reads from it. */
export interface DatabaseImage { bytes: Buffer; schema: number; owners: FileOwners }

/**
 * The live database as one image (SQLite's serialize: its pages read in one read transaction), or null when it is
 * larger than `limit`. The group transaction is committed first and the facts read in the same synchronous turn, so
 * no write lands between the image and them: they are the image's.
 */
export function imageOfDatabase(db: Db, limit = IMAGE_LIMIT): DatabaseImage | null {
  const size = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number)
  if (size > limit) return null
  commitGroup(db)
  const bytes = db.serialize()
  return { bytes, schema: db.pragma('user_version', { simple: true }) as number, owners: ownersIn(db) }
}

/**
 * A stopped server's database, opened for a backup: the exclusive lock (as `collab serve` takes it) fails at once
 * when a server still runs on it, and nothing is migrated or written.
 */
export function openStoppedDatabase(file: string): Db {
  const db = new Database(file, { timeout: 0, fileMustExist: true })
  try {
    db.pragma('locking_mode = EXCLUSIVE')
    db.exec('BEGIN IMMEDIATE; COMMIT')
  } catch (err) {
    db.close()
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new CollabError('DATABASE_IN_USE', `${file} is in use by a running collab serve: back it up through the server (collab backup create without --data), or stop it first`)
    }
    throw err
  }
  return db
}

export const closeStoppedDatabase = (db: Db) => db.close()

export interface DatabaseFacts {
  /** PRAGMA user_version: the number of migrations applied. */
  schema: number
  /** PRAGMA integrity_check's answer: `ok`, or the problems it found. */
  integrity: string
}

function readCopy<T>(file: string, read: (db: Db) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    return read(db)
  } finally {
    db.close()
  }
}

/** A copied database's schema version (PRAGMA user_version). */
export const schemaOf = (file: string) => readCopy(file, (db) => db.pragma('user_version', { simple: true }) as number)

/** The highest ids a copied database has given out to the rows that own files on disk (0 for none). */
export interface FileOwners { job: number; package: number; packageFile: number }

function ownersIn(db: Db): FileOwners {
  const max = (table: string) => (db.prepare(`SELECT COALESCE(MAX(id), 0) AS id FROM ${table}`).get() as { id: number }).id
  return { job: max('ci_jobs'), package: max('packages'), packageFile: max('package_files') }
}

export const fileOwnersOf = (file: string): FileOwners => readCopy(file, ownersIn)

/** Reads a copied database's schema version and checks its integrity, changing nothing. */
export const databaseFacts = (file: string): DatabaseFacts => readCopy(file, (db) => ({
  schema: db.pragma('user_version', { simple: true }) as number,
  integrity: (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; '),
}))
