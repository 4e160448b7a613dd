// What a statement reads and writes, as SQLite compiled it: the b-trees (tables and indexes) its EXPLAIN program opens.
import type { Db } from './db.js'

interface Op { opcode: string; p1: number; p2: number; p3: number; p4: unknown; p5: number }

/** A table's own b-tree (`name` is the table's) or one of its indexes (`name` is the index's). */
export interface Btree { table: string; name: string }

/** EXPLAIN's program of `sql`, with every parameter bound to NULL (better-sqlite3 refuses to run with one unbound). */
function programOf(db: Db, sql: string): Op[] {
  const explain = db.prepare(`EXPLAIN ${sql}`)
  // Names are bound from an object (extra keys are ignored); positional `?`s are tried up to their most possible count.
  const named = Object.fromEntries([...sql.matchAll(/[@:$]([A-Za-z_]\w*)/g)].map((m) => [m[1], null]))
  const most = sql.split('?').length - 1
  for (let n = 0; ; n++) {
    try {
      return explain.all(...new Array(n).fill(null), named) as Op[]
    } catch (err) {
      if (n >= most) throw err
    }
  }
}

/** Where an opcode names its b-tree: [root page, database index, whether p2 is a register instead]. */
type Locate = (op: Op) => [number, number, boolean]
const P2ISREG = 0x10
const opened: Locate = (op) => [op.p2, op.p3, (op.p5 & P2ISREG) !== 0]

const WRITERS: Record<string, Locate> = { OpenWrite: opened, Clear: (op) => [op.p1, op.p2, false], Destroy: (op) => [op.p1, op.p3, false] }
/** Opcodes that change what we cannot name by root page: the schema, virtual tables. */
const OPAQUE_WRITES = new Set(['CreateBtree', 'ParseSchema', 'DropTable', 'DropIndex', 'DropTrigger', 'VUpdate', 'VDestroy', 'VCreate'])

const READERS: Record<string, Locate> = { OpenRead: opened, ReopenIdx: opened }

/**
 * The b-trees `sql` opens with the opcodes in `locators`, trigger and foreign-key-action sub-programs included (EXPLAIN
 * lists them after the main program). Null when it touches what we cannot name: `opaque` opcodes, a temp table, a root
 * page held in a register.
 */
function btreesOf(db: Db, sql: string, locators: Record<string, Locate>, opaque: (op: Op) => boolean): Btree[] | null {
  const byRoot = new Map((db.prepare('SELECT rootpage, name, tbl_name FROM sqlite_master WHERE rootpage > 0').all() as { rootpage: number; name: string; tbl_name: string }[])
    .map((r) => [r.rootpage, { table: r.tbl_name, name: r.name }]))
  byRoot.set(1, { table: 'sqlite_master', name: 'sqlite_master' })
  const found = new Map<string, Btree>()
  for (const op of programOf(db, sql)) {
    if (opaque(op)) return null
    const locate = locators[op.opcode]
    if (!locate) continue
    const [root, database, inRegister] = locate(op)
    const btree = byRoot.get(root)
    if (database !== 0 || inRegister || btree === undefined) return null
    found.set(btree.name, btree)
  }
  return [...found.values()]
}

/** The b-trees a write statement changes; null ("anything") also when it changes none we can see (a PRAGMA). */
export function writtenBtrees(db: Db, sql: string): Btree[] | null {
  const btrees = btreesOf(db, sql, WRITERS, (op) => OPAQUE_WRITES.has(op.opcode))
  return btrees?.length ? btrees : null
}

/** The tables of some b-trees (each index stands for its table), sorted; null stays null. */
export const tablesOf = (btrees: Btree[] | null) => btrees && [...new Set(btrees.map((b) => b.table))].sort()

/**
 * The b-trees a read opens, by name: a table's own for a read of its rows, only an index's for a read it covers.
 * Null when it reads what we cannot name: a virtual table (EXPLAIN does not say which; json_each reads only its argument,
 * but another could read anything).
 */
export function readBtrees(db: Db, sql: string): string[] | null {
  const btrees = btreesOf(db, sql, READERS, (op) => op.opcode === 'VOpen')
  return btrees && [...new Set(btrees.map((b) => b.name))].sort()
}
