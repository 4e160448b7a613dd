// Opens the SQLite file with the pragmas we rely on and applies numbered migrations (PRAGMA user_version).
import Database from 'better-sqlite3'
import { CollabError } from '../../core/errors.js'
import m001 from './migrations/001-init.sql'
import m002 from './migrations/002-commit-statuses-comments.sql'
import m003 from './migrations/003-project-order-indexes.sql'
import m004 from './migrations/004-issues.sql'
import m005 from './migrations/005-application-settings.sql'

export type Db = Database.Database

const MIGRATIONS: string[] = [m001, m002, m003, m004, m005]

export function openDatabase(file: string): Db {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
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
const writes = new WeakMap<Db, { generation: number; reads: Map<string, unknown> }>()

function writeState(db: Db) {
  let w = writes.get(db)
  if (!w) writes.set(db, (w = { generation: 0, reads: new Map() }))
  return w
}

/** Every statement that can write bumps the connection's generation, which empties the read cache below. */
function tracked(db: Db, s: Database.Statement): Database.Statement {
  if (s.readonly) return s
  const bump = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A): R => {
    const w = writeState(db)
    w.generation++
    w.reads.clear()
    return fn(...args)
  }
  s.run = bump(s.run.bind(s)) as typeof s.run
  s.get = bump(s.get.bind(s)) as typeof s.get
  s.all = bump(s.all.bind(s)) as typeof s.all
  return s
}

/** Prepared statements are cached per connection: preparing is most of the cost of a small query. */
export function stmt(db: Db, sql: string): Database.Statement {
  let map = cache.get(db)
  if (!map) cache.set(db, (map = new Map()))
  let s = map.get(sql)
  if (!s) map.set(sql, (s = tracked(db, db.prepare(sql))))
  return s
}

/**
 * A read remembered until the next write on this connection. The server is the only writer of its database and
 * holds one connection, so a remembered row can never be stale; hot reads (a project by id) then skip SQLite.
 * Callers must treat the returned value as read-only.
 */
export function cachedRead<T>(db: Db, key: string, read: () => T): T {
  const w = writeState(db)
  if (w.reads.has(key)) return w.reads.get(key) as T
  const value = read()
  if (w.reads.size >= 50_000) w.reads.clear()
  w.reads.set(key, value)
  return value
}

export const bool = (v: unknown) => v === 1 || v === true
