// Opens the SQLite file with the pragmas we rely on and applies numbered migrations (PRAGMA user_version).
import Database from 'better-sqlite3'
import { CollabError } from '../../core/errors.js'
import { tablesWrittenWith } from './tables.js'
import { commitGroup, WriteStatement } from './writes.js'
import m001 from './migrations/001-init.sql'
import m002 from './migrations/002-commit-statuses-comments.sql'
import m003 from './migrations/003-project-order-indexes.sql'
import m004 from './migrations/004-issues.sql'
import m005 from './migrations/005-application-settings.sql'
import m006 from './migrations/006-protected-branches.sql'
import m007 from './migrations/007-noteables.sql'
import m008 from './migrations/008-merge-requests.sql'
import m009 from './migrations/009-merge-request-approvals.sql'
import m010 from './migrations/010-merge-request-noteables.sql'
import m011 from './migrations/011-ci.sql'
import m012 from './migrations/012-snippets.sql'
import m013 from './migrations/013-webhooks.sql'
import m014 from './migrations/014-user-keys.sql'
import m015 from './migrations/015-notifications-badges.sql'
import m016 from './migrations/016-label-subscriptions.sql'
import m017 from './migrations/017-user-profile.sql'
import m018 from './migrations/018-discussions.sql'
import m019 from './migrations/019-resource-events-links.sql'
import m020 from './migrations/020-events.sql'
import m021 from './migrations/021-broadcast-messages.sql'
import m022 from './migrations/022-ci-group-variables-triggers.sql'
import m023 from './migrations/023-group-labels-milestones.sql'
import m024 from './migrations/024-merge-params.sql'
import m025 from './migrations/025-bulk-push-events.sql'
import m026 from './migrations/026-issue-list-versions-counts.sql'
import m027 from './migrations/027-fork-merge-requests.sql'
import m028 from './migrations/028-encrypted-secrets.sql'
import m029 from './migrations/029-job-token-scope.sql'
import m030 from './migrations/030-protected-tags.sql'
import m031 from './migrations/031-markdown-cache.sql'
import m032 from './migrations/032-ids-never-reused.js'
import m033 from './migrations/033-ci-runners.sql'
import m034 from './migrations/034-releases.sql'
import m035 from './migrations/035-packages.sql'
import m036 from './migrations/036-environments.sql'
import m037 from './migrations/037-access-tokens.sql'
import m038 from './migrations/038-remote-mirrors.sql'
import m039 from './migrations/039-draft-notes.sql'
import m040 from './migrations/040-issues-project-milestone.sql'

export type Db = Database.Database

/**
 * SQL text, or a function for a migration that must read the schema it finds (one that rebuilds whatever tables the
 * database has). A function runs with foreign keys off, as an SQL text whose first line is `-- foreign-keys: off` does.
 */
type Migration = string | ((db: Db) => void)

const MIGRATIONS: Migration[] = [m001, m002, m003, m004, m005, m006, m007, m008, m009, m010, m011, m012, m013, m014, m015, m016, m017,
  m018, m019, m020, m021, m022, m023, m024, m025, m026, m027, m028, m029, m030, m031,
  m032, m033, m034, m035, m036, m037, m038, m039, m040]

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
