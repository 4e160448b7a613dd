// What every write does besides writing: it stamps the tables it declares (so remembered reads of other tables stay
// valid) and joins the connection's group transaction, which commits once per event-loop turn.
import type Database from 'better-sqlite3'
import type { Db } from './db.js'

interface Remembered { at: number; tables: readonly string[]; value: unknown }

interface Group { done: Promise<void>; resolve: () => void; reject: (err: unknown) => void; from: number }

interface WriteState {
  /** Advanced by every write; a remembered read taken at `at` is current while none of its tables is stamped later. */
  clock: number
  stamps: Map<string, number>
  /** Stamp of the last change to any table at all: a rollback, or a write that declares no tables. */
  everything: number
  reads: Map<string, Remembered>
  /** Characters of the keys of `reads` (a count's key holds its SQL text). */
  keyChars: number
  group: Group | null
  control: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', Database.Statement> | undefined
  watcher: WriteWatcher | undefined
  /** The write clocks (from, to] of the last groups whose COMMIT failed, newest last. */
  failures: { from: number; to: number }[]
}

/** Sees every write statement run, with the tables it declares (null: undeclared), for the store's declaration test. */
export type WriteWatcher = <R>(sql: string, tables: readonly string[] | null, run: () => R) => R

const states = new WeakMap<Db, WriteState>()
/**
 * Remembered reads are rows, counts and short lists: 20,000 of them with keys of 4 Mi characters at most keep the
 * memory they hold to some tens of MiB, whatever the requests.
 */
const READS_LIMIT = 20_000
const KEY_CHARS_LIMIT = 4 * 1024 * 1024

function stateOf(db: Db): WriteState {
  let w = states.get(db)
  if (!w) states.set(db, (w = { clock: 0, stamps: new Map(), everything: 0, reads: new Map(), keyChars: 0, group: null, control: undefined, watcher: undefined, failures: [] }))
  return w
}

/** Installs (or, with undefined, removes) the connection's write watcher. */
export function watchWrites(db: Db, watcher: WriteWatcher | undefined) {
  stateOf(db).watcher = watcher
}

function stamp(w: WriteState, tables: readonly string[] | null) {
  w.clock++
  if (tables === null) w.everything = w.clock
  else for (const t of tables) w.stamps.set(t, w.clock)
}

/** Forgets every remembered read: after a rollback, what was read inside the transaction may never have existed. */
function forgetReads(db: Db) {
  const w = stateOf(db)
  stamp(w, null)
  w.reads.clear()
  w.keyChars = 0
}

/**
 * A write statement of the store: before each run it joins (or opens) the group transaction and stamps the tables it
 * declares, null meaning "any table". It holds better-sqlite3's statement rather than changing it.
 */
export class WriteStatement {
  readonly source: string
  constructor(private readonly db: Db, private readonly s: Database.Statement, readonly tables: readonly string[] | null) {
    this.source = s.source
  }

  private before() {
    const w = stateOf(this.db)
    openGroup(this.db, w)
    stamp(w, this.tables)
    return w.watcher
  }

  run(...params: unknown[]): Database.RunResult {
    const watcher = this.before()
    return watcher ? watcher(this.source, this.tables, () => this.s.run(...params)) : this.s.run(...params)
  }

  /** For a statement with RETURNING. */
  get(...params: unknown[]): unknown {
    const watcher = this.before()
    return watcher ? watcher(this.source, this.tables, () => this.s.get(...params)) : this.s.get(...params)
  }

  all(...params: unknown[]): unknown[] {
    const watcher = this.before()
    return watcher ? watcher(this.source, this.tables, () => this.s.all(...params)) : this.s.all(...params)
  }
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
  if (w.reads.size >= READS_LIMIT || w.keyChars + key.length > KEY_CHARS_LIMIT) {
    w.reads.clear()
    w.keyChars = 0
  }
  if (!w.reads.has(key)) w.keyChars += key.length
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
  w.group = { done, resolve, reject, from: w.clock }
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
    w.failures.push({ from: group.from, to: w.clock })
    if (w.failures.length > FAILURES_KEPT) w.failures.shift()
    forgetReads(db)
    group.reject(err)
  }
}

const FAILURES_KEPT = 32

/**
 * Whether a group holding writes made after `clock` failed to commit. A request that awaited something after writing
 * may find its group already gone (committed or not) by the time it answers: this says which. It cannot tell a request's
 * own writes from a neighbour's in the same window, so after a failed COMMIT it errs towards "not saved".
 */
export function failedSince(db: Db, clock: number): boolean {
  const { failures } = stateOf(db)
  for (let i = failures.length - 1; i >= 0; i--) if (failures[i].to > clock) return true
  return false
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
