// The build's migrated database (dist/schema.db, `npm run build`), which a fresh data directory of `collab serve` starts
// from, holds what running every migration on an empty file writes: the same tables, indexes, triggers and views with
// the same SQL, the same rows, the same schema version.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, expect, it } from 'vitest'
import { boot } from '../../../src/server/boot.js'
import { silentLogger } from '../../../src/core/logger.js'
import { closeDatabase, openDatabase, schemaVersion, type Db } from '../../../src/server/store/db.js'

const IMAGE = new URL('../../../dist/schema.db', import.meta.url).pathname
const scratch = mkdtempSync(join(tmpdir(), 'collab-schema-image-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Everything a database holds that a migration can write: its objects' SQL, every table's rows, its version. */
function contents(db: Db) {
  const objects = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all() as { type: string; name: string }[]
  // Sorted as text: some tables have no rowid to order by.
  const rows = Object.fromEntries(objects.filter((o) => o.type === 'table').map((o) => [o.name, db.prepare(`SELECT * FROM "${o.name}"`).all().map((r) => JSON.stringify(r)).sort()]))
  const pragmas = ['user_version', 'page_size', 'auto_vacuum', 'encoding', 'application_id'].map((p) => [p, db.pragma(p, { simple: true })])
  return { objects, rows, pragmas }
}

it('holds what the migrations write on an empty database', () => {
  expect(existsSync(IMAGE), 'dist/schema.db: run npm run build').toBe(true)
  closeDatabase(openDatabase(join(scratch, 'migrated.db')))
  // Read as they are: openDatabase would bring a copy of an image older than the migrations up to date.
  const image = new Database(IMAGE, { readonly: true })
  const migrated = new Database(join(scratch, 'migrated.db'), { readonly: true })
  try {
    expect(image.pragma('user_version', { simple: true }), 'dist/schema.db predates a migration: run npm run build').toBe(schemaVersion())
    expect(contents(image)).toEqual(contents(migrated))
    expect(contents(migrated).objects.length).toBeGreaterThan(100)
  } finally {
    image.close()
    migrated.close()
  }
})

it('is copied only into a data directory without a database, never over one', () => {
  const dataDir = join(scratch, 'data')
  const first = boot({ dataDir, log: silentLogger, rootToken: 'glpat-schema-image-token-0000000', migratedDatabase: IMAGE })
  const rootId = (first.app.db.prepare("SELECT id FROM users WHERE username = 'root'").get() as { id: number }).id
  first.app.db.prepare('UPDATE users SET name = ? WHERE id = ?').run('Kept', rootId)
  closeDatabase(first.app.db)
  const again = boot({ dataDir, log: silentLogger, migratedDatabase: IMAGE })
  try {
    expect(again.app.db.prepare('SELECT name FROM users WHERE id = ?').get(rootId)).toEqual({ name: 'Kept' })
    expect(again.root).toEqual({ created: null, token: null })
  } finally {
    closeDatabase(again.app.db)
  }
})
