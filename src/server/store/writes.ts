// What every write does besides writing: it stamps the tables it can change (so remembered reads of other tables stay
// valid) and joins the connection's group transaction, which commits once per event-loop turn.
import type Database from 'better-sqlite3'
import type { Db } from './db.js'

interface Remembered { at: number; tables: readonly string[]; value: unknown }

interface Group { done: Promise<void>; resolve: () => void; reject: (err: unknown) => void }

interface WriteState {
  /** Advanced by every write; a remembered read taken at `at` is current while none of its tables is stamped later. */
  clock: number
  stamps: Map<string, number>
  /** Stamp of the last change to any table at all: a rollback, or a statement whose target we cannot name. */
  everything: number
  reads: Map<string, Remembered>
  group: Group | null
  control: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', Database.Statement> | undefined
  /** The schema's foreign-key actions, read once; null when triggers exist. */
  cascades: Cascades | null | undefined
}

const states = new WeakMap<Db, WriteState>()
const READS_LIMIT = 50_000

function stateOf(db: Db): WriteState {
  let w = states.get(db)
  if (!w) states.set(db, (w = { clock: 0, stamps: new Map(), everything: 0, reads: new Map(), group: null, control: undefined, cascades: undefined }))
  return w
}

type Action = 'delete' | 'update'

interface Cascades { children: Map<string, { delete: Set<string>; update: Set<string> }> }

/** Parent table -> child tables whose rows an ON DELETE / ON UPDATE action changes; null when a trigger exists. */
function cascadesOf(db: Db): Cascades | null {
  const tables = db.prepare("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'trigger')").all() as { name: string; type: string }[]
  // A trigger can write anywhere; with one, every write is treated as changing everything.
  if (tables.some((t) => t.type === 'trigger')) return null
  const children = new Map<string, { delete: Set<string>; update: Set<string> }>()
  const acts = (a: string) => a !== 'NO ACTION' && a !== 'RESTRICT'
  for (const { name } of tables) {
    for (const fk of db.pragma(`foreign_key_list("${name}")`) as { table: string; on_delete: string; on_update: string }[]) {
      let edges = children.get(fk.table)
      if (!edges) children.set(fk.table, (edges = { delete: new Set(), update: new Set() }))
      if (acts(fk.on_delete)) edges.delete.add(name)
      if (acts(fk.on_update)) edges.update.add(name)
    }
  }
  return { children }
}

/** `table` and every table the first action (and, conservatively, any action after it) reaches. */
function reach(c: Cascades, table: string, first: Action[]): string[] {
  const seen = new Set([table])
  const todo: [string, Action[]][] = [[table, first]]
  while (todo.length) {
    const [t, kinds] = todo.pop()!
    const edges = c.children.get(t)
    if (!edges) continue
    for (const kind of kinds) for (const child of edges[kind]) if (!seen.has(child)) seen.add(child), todo.push([child, ['delete', 'update']])
  }
  return [...seen]
}

const TARGET = /^\s*(?:(INSERT|REPLACE)(?:\s+OR\s+(\w+))?\s+INTO|(UPDATE)(?:\s+OR\s+\w+)?|(DELETE)\s+FROM)\s+["`]?(\w+)/i
const UPSERT = /\bON\s+CONFLICT\b/i

/** The tables a write statement can change, or null for "any". */
function affectedTables(db: Db, sql: string): string[] | null {
  const w = stateOf(db)
  if (w.cascades === undefined) w.cascades = cascadesOf(db)
  const m = TARGET.exec(sql)
  if (!m || !w.cascades) return null
  const [, insert, conflict, update, del, table] = m
  if (update) return reach(w.cascades, table, ['update'])
  if (del) return reach(w.cascades, table, ['delete'])
  // REPLACE deletes the rows it conflicts with; an upsert updates them; a plain INSERT fires no action.
  if (insert.toUpperCase() === 'REPLACE' || conflict?.toUpperCase() === 'REPLACE') return reach(w.cascades, table, ['delete', 'update'])
  if (UPSERT.test(sql)) return reach(w.cascades, table, ['update'])
  return [table]
}

function stamp(w: WriteState, tables: string[] | null) {
  w.clock++
  if (tables === null) w.everything = w.clock
  else for (const t of tables) w.stamps.set(t, w.clock)
}

/** Forgets every remembered read: after a rollback, what was read inside the transaction may never have existed. */
function forgetReads(db: Db) {
  const w = stateOf(db)
  stamp(w, null)
  w.reads.clear()
}

/**
 * Wraps a write statement: before it runs, it joins (or opens) the group transaction and stamps the tables it changes.
 * Read-only statements are returned as they are.
 */
export function trackWrites(db: Db, s: Database.Statement): Database.Statement {
  if (s.readonly) return s
  const tables = affectedTables(db, s.source)
  const w = stateOf(db)
  const wrap = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A): R => {
    openGroup(db, w)
    stamp(w, tables)
    return fn(...args)
  }
  s.run = wrap(s.run.bind(s)) as typeof s.run
  s.get = wrap(s.get.bind(s)) as typeof s.get
  s.all = wrap(s.all.bind(s)) as typeof s.all
  return s
}

/** A number that changes with every write on the connection: a key for caches that depend on everything. */
export const writeGeneration = (db: Db) => stateOf(db).clock

const current = (w: WriteState, hit: Remembered, tables: readonly string[]) =>
  hit.at >= w.everything && tables.every((t) => (w.stamps.get(t) ?? 0) <= hit.at)

/** A remembered value if it is still current, without reading on a miss (for callers that batch their misses). */
export function peekRead<T>(db: Db, key: string, tables: readonly string[]): T | undefined {
  const w = stateOf(db)
  const hit = w.reads.get(key)
  return hit && current(w, hit, tables) ? (hit.value as T) : undefined
}

/**
 * A read remembered until a write to one of `tables` (or a rollback). The server is the only writer of its database
 * and holds one connection, so a remembered value can never be stale; hot reads (a token, a project by id) then skip
 * SQLite. Callers must treat the returned value as read-only.
 */
export function cachedRead<T>(db: Db, key: string, tables: readonly string[], read: () => T): T {
  const w = stateOf(db)
  const hit = w.reads.get(key)
  if (hit && current(w, hit, tables)) return hit.value as T
  const value = read()
  if (w.reads.size >= READS_LIMIT) w.reads.clear()
  w.reads.set(key, { at: w.clock, tables, value })
  return value
}

// Group commit. Committing a WAL transaction writes every page it dirtied, and concurrent requests dirty the same
// index pages, so one COMMIT per event-loop turn for all the writes made in it costs a fraction of one per request.
// Each request's own unit of work is a SAVEPOINT inside the group (better-sqlite3 nests `db.transaction` that way),
// so a failing request still rolls back alone; responses wait for the group's COMMIT (see `committed`).

function control(db: Db, w: WriteState) {
  return (w.control ??= {
    begin: db.prepare('BEGIN'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT unit'), release: db.prepare('RELEASE unit'), rollbackTo: db.prepare('ROLLBACK TO unit'),
  })
}

function openGroup(db: Db, w: WriteState) {
  if (w.group || db.inTransaction) return
  control(db, w).begin.run()
  let resolve!: () => void
  let reject!: (err: unknown) => void
  const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)))
  // Whoever awaits `committed` hears of a failure; writers nobody waits for must not crash the process with it.
  done.catch(() => {})
  w.group = { done, resolve, reject }
  setImmediate(() => commitGroup(db))
}

/** Commits the open group now (also before the connection closes). */
export function commitGroup(db: Db) {
  const w = stateOf(db)
  const group = w.group
  if (!group) return
  w.group = null
  try {
    // SQLite ends a transaction by itself on some errors (a full disk); the group's writes are then gone.
    if (!db.inTransaction) throw new Error('the group transaction was rolled back by SQLite')
    control(db, w).commit.run()
    group.resolve()
  } catch (err) {
    try {
      if (db.inTransaction) control(db, w).rollback.run()
    } catch {
      // The connection is already outside the transaction; nothing is left to undo.
    }
    forgetReads(db)
    group.reject(err)
  }
}

/** The open group's COMMIT, for a response that must not be sent before what it reports is saved; undefined when none is open. */
export const committed = (db: Db): Promise<void> | undefined => stateOf(db).group?.done

/**
 * One unit of work: all of `fn`'s writes or none. It is a SAVEPOINT inside the group transaction (better-sqlite3's
 * `db.transaction` does the same, but builds a new wrapper per call, which costs more than the statements here).
 */
export function transaction<T>(db: Db, fn: () => T): T {
  const w = stateOf(db)
  openGroup(db, w)
  const c = control(db, w)
  c.savepoint.run()
  try {
    const result = fn()
    if (result instanceof Promise) throw new TypeError('a unit of work must be synchronous: its writes would outlive the savepoint')
    c.release.run()
    return result
  } catch (err) {
    // SQLite may have ended the whole transaction on its own (a full disk); then there is no savepoint left to undo.
    if (db.inTransaction) {
      c.rollbackTo.run()
      c.release.run()
    }
    forgetReads(db)
    throw err
  }
}
