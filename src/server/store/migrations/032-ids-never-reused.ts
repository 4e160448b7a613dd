// Migration 032: an id is handed out once. Without AUTOINCREMENT SQLite gives max(id)+1 again after the newest row is
// deleted, and whatever is keyed by an id outside its row (a job's trace file, a project's repository directory, a URL
// someone kept) then shows the deleted row's data to the new one. SQLite adds AUTOINCREMENT only by rebuilding a table,
// so this reads each table's CREATE statement as this database has it (earlier migrations added columns) and rebuilds
// the table after SQLite's procedure for other schema changes (https://www.sqlite.org/lang_altertable.html#otheralter):
// db.ts runs a function migration with foreign keys off, in one transaction, and checks the foreign keys before it
// commits. Ids reused before this ran cannot be told apart any more.
import type Database from 'better-sqlite3'

type Db = Database.Database

interface Table { name: string; sql: string; column: string }

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Tables whose ids SQLite may hand out again, with the id column: a rowid table's single INTEGER PRIMARY KEY (the rowid
 * itself) without AUTOINCREMENT. A key that is also a foreign key is left alone: its value is the parent row's id (an
 * issue's is its noteable's), never allocated here.
 */
function reusingIds(db: Db): Table[] {
  const keyed = db.prepare(`SELECT m.name, m.sql, k.name AS "column" FROM sqlite_master m JOIN pragma_table_info(m.name) k ON k.pk > 0
    WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.sql NOT LIKE 'CREATE VIRTUAL%'
    GROUP BY m.name HAVING COUNT(*) = 1 AND upper(k.type) = 'INTEGER'
      AND NOT EXISTS (SELECT 1 FROM pragma_foreign_key_list(m.name) f WHERE f."from" = k.name)`).all() as Table[]
  return keyed.filter((t) => {
    const code = t.sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, '')
    return !/\bAUTOINCREMENT\b/i.test(code) && !/\bWITHOUT\s+ROWID\b/i.test(code.slice(code.lastIndexOf(')')))
  })
}

/** The table's CREATE statement, its id column made `INTEGER PRIMARY KEY AUTOINCREMENT`. */
function withAutoincrement(table: Table): string {
  const definition = new RegExp(`(["\`[]?\\b${escape(table.column)}\\b["\`\\]]?\\s+INTEGER\\s+PRIMARY\\s+KEY(?:\\s+ASC)?)\\b`, 'gi')
  if (table.sql.match(definition)?.length !== 1) throw new Error(`migration 032: no single definition of ${table.name}.${table.column} in ${table.sql}`)
  return table.sql.replace(definition, '$1 AUTOINCREMENT')
}

/**
 * Rebuilds the table under its own name, its rows kept meanwhile in a temporary table of untyped columns (which
 * store values as they are). The documented procedure builds the new table beside the old and renames it; but every
 * RENAME reloads and rewrites the whole schema (most of this migration's cost on a fresh database, run by every test
 * server), and without one no reference to the table anywhere can be rewritten.
 */
function rebuild(db: Db, table: Table) {
  const columns = (db.pragma(`table_info("${table.name}")`) as { name: string }[]).map((c) => `"${c.name}"`).join(', ')
  const rows = db.prepare(`SELECT EXISTS (SELECT 1 FROM "${table.name}") AS any`).get() as { any: number }
  if (rows.any) db.exec(`CREATE TEMP TABLE kept_rows (${columns}); INSERT INTO temp.kept_rows SELECT ${columns} FROM "${table.name}"`)
  db.exec(`DROP TABLE "${table.name}"`)
  db.exec(withAutoincrement(table))
  // Inserting the rows with their ids also seeds sqlite_sequence with the largest: the next id is past every row's.
  if (rows.any) db.exec(`INSERT INTO "${table.name}" (${columns}) SELECT ${columns} FROM temp.kept_rows; DROP TABLE temp.kept_rows`)
}

export default function idsNeverReused(db: Db) {
  if (db.pragma('foreign_keys', { simple: true })) throw new Error('migration 032 drops parent tables: run it with foreign keys off')
  const rebuilt = reusingIds(db)
  const names = new Set(rebuilt.map((t) => t.name))
  const dependents = db.prepare("SELECT tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid")
    .all() as { tbl_name: string; sql: string }[]
  for (const table of rebuilt) rebuild(db, table)
  // Dropping a table dropped its indexes and triggers: they come back from their own CREATE statements, in their order
  // (the automatic indexes of UNIQUE constraints came with the table). Triggers elsewhere and views name the table in
  // their bodies only, which SQLite resolves when they run.
  for (const e of dependents) if (names.has(e.tbl_name)) db.exec(e.sql)
}
