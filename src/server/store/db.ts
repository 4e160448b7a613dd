// Opens the SQLite file with the pragmas we rely on and applies numbered migrations (PRAGMA user_version).
import Database from 'better-sqlite3'
import { CollabError } from '../../core/errors.js'
import { commitGroup, trackWrites } from './writes.js'
import m001 from './migrations/001-init.sql'
import m002 from './migrations/002-commit-statuses-comments.sql'
import m003 from './migrations/003-project-order-indexes.sql'
import m004 from './migrations/004-issues.sql'
import m005 from './migrations/005-application-settings.sql'
import m006 from './migrations/006-protected-branches.sql'

export type Db = Database.Database

const MIGRATIONS: string[] = [m001, m002, m003, m004, m005, m006]

export function openDatabase(file: string): Db {
  const db = new Database(file, { timeout: 0 })
  // The connection holds the database's lock for as long as it is open: its read caches rely on being the only
  // writer, so a second server on the same data directory must fail at once rather than write behind its back.
  // (In exclusive mode WAL also needs no shared-memory index, which makes each commit a little cheaper.)
  db.pragma('locking_mode = EXCLUSIVE')
  try {
    db.pragma('journal_mode = WAL')
    db.exec('BEGIN IMMEDIATE; COMMIT')
  } catch (err) {
    db.close()
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new CollabError('DATABASE_IN_USE', `${file} is in use by another process (another collab serve on this data directory?)`)
    }
    throw err
  }
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  migrate(db)
  return db
}

function migrate(db: Db) {
  const current = db.pragma('user_version', { simple: true }) as number
  if (current > MIGRATIONS.length) {
    db.close()
    throw new CollabError('DATABASE_TOO_NEW',
      `the database schema is version ${current}, newer than this collab (${MIGRATIONS.length}); upgrade collab`)
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v])
      db.pragma(`user_version = ${v + 1}`)
    })()
  }
}

const cache = new WeakMap<Db, Map<string, Database.Statement>>()

/**
 * Statements kept per connection. SQL texts are fixed or built from a bounded set of filters (ids are bound, see
 * `idList`), so this is a backstop: whatever text a request manages to vary, memory stays bounded.
 */
export const STATEMENT_CACHE_LIMIT = 500

/**
 * Prepared statements are cached per connection: preparing is most of the cost of a small query. The Map keeps
 * insertion order, so re-inserting on a hit makes its first key the least recently used one, evicted when full.
 */
export function stmt(db: Db, sql: string): Database.Statement {
  let map = cache.get(db)
  if (!map) cache.set(db, (map = new Map()))
  let s = map.get(sql)
  if (s) {
    map.delete(sql)
  } else {
    s = trackWrites(db, db.prepare(sql))
    if (map.size >= STATEMENT_CACHE_LIMIT) map.delete(map.keys().next().value!)
  }
  map.set(sql, s)
  return s
}

/** How many prepared statements the connection keeps (for tests of the bound). */
export const statementCacheSize = (db: Db) => cache.get(db)?.size ?? 0

/**
 * A list of ids as one bound parameter, for `x IN (SELECT value FROM json_each(?))`: pasting ids into the SQL text
 * (or one `?` per id) would make a new statement for every distinct list.
 */
export const idList = (ids: readonly number[]) => JSON.stringify(ids.map(Number))

/** The SQL that reads an `idList` parameter named `param` (`?` or `@name`). */
export const inIds = (param: string) => `IN (SELECT value FROM json_each(${param}))`

/** Closes the connection after committing the open group transaction, which closing would roll back. */
export function closeDatabase(db: Db) {
  commitGroup(db)
  db.close()
}

export const bool = (v: unknown) => v === 1 || v === true

export { cachedRead, committed, peekRead, transaction, writeGeneration } from './writes.js'
