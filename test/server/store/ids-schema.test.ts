// The rule every table keeps, tables added later included: an id SQLite allocates is never handed out again.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { closeDatabase, openDatabase, type Db } from '../../../src/server/store/db.js'

let dir: string
let db: Db

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'collab-ids-schema-'))
  db = openDatabase(join(dir, 'collab.db'))
})
afterAll(() => {
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

interface Column { name: string; type: string; pk: number }

/** Each single-column INTEGER PRIMARY KEY of a rowid table: the rowid, which SQLite allocates. */
function allocatedKeys(): { table: string; column: string; sql: string; foreign: boolean }[] {
  const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[]
  return tables.flatMap(({ name, sql }) => {
    const keys = (db.pragma(`table_info("${name}")`) as Column[]).filter((c) => c.pk)
    // A comment may mention the words: only the statement's code counts.
    const code = sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, '')
    if (keys.length !== 1 || keys[0].type.toUpperCase() !== 'INTEGER' || /\bWITHOUT\s+ROWID\b/i.test(code.slice(code.lastIndexOf(')')))) return []
    const foreign = (db.pragma(`foreign_key_list("${name}")`) as { from: string }[]).some((f) => f.from === keys[0].name)
    return [{ table: name, column: keys[0].name, sql: code, foreign }]
  })
}

it('gives every table whose integer key SQLite allocates AUTOINCREMENT, so a deleted row’s id never comes back', () => {
  const keys = allocatedKeys()
  // A key that is a foreign key (an issue's id is its noteable's) takes its parent's id, which is itself never reused.
  const lacking = keys.filter((k) => !k.foreign && !/\bAUTOINCREMENT\b/i.test(k.sql)).map((k) => `${k.table}.${k.column}`)
  expect(lacking).toEqual([])
  expect(keys.filter((k) => !k.foreign).map((k) => k.table)).toEqual(expect.arrayContaining(['ci_jobs', 'issue_links', 'noteables', 'notes', 'projects', 'users']))
})

