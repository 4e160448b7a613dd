// The database's part of a backup: an online copy through SQLite's backup API, a stopped server's database opened
// without changing it, and the facts a restore checks in a copy (schema version, integrity).
import Database from 'better-sqlite3'
import { rm } from 'node:fs/promises'
import { CollabError } from '../../core/errors.js'
import type { Db } from './db.js'
import { commitGroup } from './writes.js'

/** About 8 MB a step (4 KiB pages): each step holds the event loop for a few milliseconds. */
const PAGES_PER_STEP = 2048
const ATTEMPTS = 20

/**
 * Copies the live database into `file` while requests go on writing. SQLite brings the copy up to date with every
 * write made through this connection meanwhile, so the copy is the database as committed when the last step ran.
 * A step finds the source busy while the connection's group transaction (store/writes.ts) is open, so the group is
 * committed just before each step, in the same turn of the event loop, or steady writing would hold the copy off for ever.
 * better-sqlite3 takes a busy first step for "nothing left to copy" and ends with no file: that copy is tried again.
 */
export async function copyDatabase(db: Db, file: string): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    commitGroup(db)
    const done = await db.backup(file, {
      progress: () => {
        setImmediate(() => commitGroup(db))
        return PAGES_PER_STEP
      },
    })
    if (done.totalPages > 0) return
    await rm(file, { force: true })
  }
  throw new CollabError('FAILED', 'the database stayed busy: no copy of it could be made')
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

/** Reads a copied database's schema version and checks its integrity, changing nothing. */
export const databaseFacts = (file: string): DatabaseFacts => readCopy(file, (db) => ({
  schema: db.pragma('user_version', { simple: true }) as number,
  integrity: (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; '),
}))
