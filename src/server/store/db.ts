// Opens the SQLite file with the pragmas we rely on and applies numbered migrations (PRAGMA user_version).
import Database from 'better-sqlite3'
import { CollabError } from '../../core/errors.js'
import { tablesWrittenWith } from './tables.js'
import { commitGroup, WriteStatement } from './writes.js'
import { MIGRATIONS as ALL_MIGRATIONS } from './migrations.generated.js'

export type Db = Database.Database

/**
 * SQL text, or a function for a migration that must read the schema it finds (one that rebuilds whatever tables the
 * database has). A function runs with foreign keys off, as an SQL text whose first line is `-- foreign-keys: off` does.
 */
type Migration = string | ((db: Db) => void)

/** Every file of migrations/, in its numbered order (a new one is picked up by scripts/registries.mjs). */
const MIGRATIONS: Migration[] = ALL_MIGRATIONS

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
  // SQLite's default page cache is 2 MiB: a project of 10,000 issues outgrows it, and list pages then read pages through
  // the OS on every request. 32 MiB is an upper bound, filled only as pages are read.
  db.pragma('cache_size = -32768')
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
    // A migration that rebuilds a parent table says so on its first line: dropping the old table with foreign keys on
    // would cascade into its children. The pragma takes effect only outside a transaction; the check keeps it honest.
    const migration = MIGRATIONS[v]
    const keysOff = typeof migration === 'function' || migration.startsWith('-- foreign-keys: off')
    if (keysOff) db.pragma('foreign_keys = OFF')
    try {
      db.transaction(() => {
        if (typeof migration === 'function') migration(db)
        else db.exec(migration)
        if (keysOff && (db.pragma('foreign_key_check') as unknown[]).length) throw new Error(`migration ${v + 1} broke foreign keys`)
        db.pragma(`user_version = ${v + 1}`)
      })()
    } finally {
      if (keysOff) db.pragma('foreign_keys = ON')
    }
  }
}

/** What the store runs: better-sqlite3's own statement for a read, a WriteStatement (see writes.ts) for a write. */
export interface Statement {
  readonly source: string
  run(...params: unknown[]): Database.RunResult
  get(...params: unknown[]): unknown
  all(...params: unknown[]): unknown[]
}

const cache = new WeakMap<Db, Map<string, Database.Statement | WriteStatement>>()

/**
 * Statements kept per connection. SQL texts are fixed or built from a bounded set of filters (id lists are bound, see
 * `inIds`), so this is a backstop: whatever text a request manages to vary, memory stays bounded.
 */
export const STATEMENT_CACHE_LIMIT = 500

/**
 * Prepared statements are cached per connection: preparing is most of the cost of a small query. The Map keeps
 * insertion order, so re-inserting on a hit makes its first key the least recently used one, evicted when full.
 * `writes` is the table a write statement names (see `write`); undefined for a read, or a write that declares nothing.
 */
function prepared(db: Db, sql: string, writes?: string): Database.Statement | WriteStatement {
  let map = cache.get(db)
  if (!map) cache.set(db, (map = new Map()))
  const key = writes === undefined ? sql : `${writes}\0${sql}`
  let s = map.get(key)
  if (s) {
    map.delete(key)
  } else {
    const raw = db.prepare(sql)
    // An undeclared write counts as a write to every table: correct, but it forgets every remembered read.
    s = raw.readonly ? raw : new WriteStatement(db, raw, writes === undefined ? null : tablesWrittenWith(db, writes, DELETES.test(sql)))
    if (map.size >= STATEMENT_CACHE_LIMIT) map.delete(map.keys().next().value!)
  }
  map.set(key, s)
  return s
}

/** A statement; a write run through it counts as a write to every table (declare writes with `write`). */
export const stmt = (db: Db, sql: string): Statement => prepared(db, sql)

/** Whether a statement may delete rows, and so set foreign-key actions off: a DELETE, or a REPLACE of a conflicting row. */
const DELETES = /\b(DELETE|REPLACE)\b/i

/**
 * A write statement that declares the table it writes (INSERT INTO / UPDATE / DELETE FROM that table): runs of it
 * forget the remembered reads of that table and of what its triggers and foreign-key actions change (store/tables.ts).
 * A test fails when a statement changes a table its declaration does not reach.
 */
export const write = (db: Db, table: string, sql: string): Statement => prepared(db, sql, table)

/** A read statement as better-sqlite3 made it, for callers that use its raw mode or columns. */
export function readStatement(db: Db, sql: string): Database.Statement {
  const s = prepared(db, sql)
  if (s instanceof WriteStatement) throw new TypeError(`not a read: ${sql}`)
  return s
}

/** How many prepared statements the connection keeps (for tests of the bound). */
export const statementCacheSize = (db: Db) => cache.get(db)?.size ?? 0

/** Past this many ids a list is bound as one JSON parameter: a text per power of two would no longer be a handful. */
const LONGEST_PADDED_LIST = 1024

/**
 * `IN (@name0, @name1, …)` for a list of ids, its values put in `args`. Pasting ids into the SQL text (or one `?` per
 * id) makes a new statement for every distinct list; here the list is padded to the next power of two by repeating
 * its last id, so a dozen texts serve every list. A literal list keeps the plans SQLite makes for it (index probes per
 * id), which `IN (SELECT value FROM json_each(?))` does not: there the planner walked a project's whole
 * created_at index for an `iids[]` filter. Longer lists are bound as one JSON array.
 */
export function inIds(name: string, ids: readonly number[], args: Record<string, unknown>): string {
  if (ids.length > LONGEST_PADDED_LIST) {
    args[name] = JSON.stringify(ids.map(Number))
    return `IN (SELECT value FROM json_each(@${name}))`
  }
  const size = ids.length ? 2 ** Math.ceil(Math.log2(ids.length)) : 0
  const marks: string[] = []
  for (let i = 0; i < size; i++) {
    marks.push(`@${name}${i}`)
    args[`${name}${i}`] = Number(ids[Math.min(i, ids.length - 1)])
  }
  return `IN (${marks.join(', ')})`
}

/** Closes the connection after committing the open group transaction, which closing would roll back. */
export function closeDatabase(db: Db) {
  commitGroup(db)
  db.close()
}

export const bool = (v: unknown) => v === 1 || v === true

export { cachedRead, committed, peekRead, transaction, writeGeneration } from './writes.js'

/** The schema version this collab writes: the number of the latest migration (a backup records it; a restore compares). */
export const schemaVersion = () => MIGRATIONS.length
