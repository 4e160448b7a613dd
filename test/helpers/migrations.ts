// Databases as an earlier release left them, for migration tests.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach } from 'vitest'

const MIGRATIONS = join(__dirname, '../../src/server/store/migrations')

type Apply = (db: Database.Database) => void
/** Migrations written as functions (NNN-name.ts), by file name; db.ts runs them with foreign keys off. */
const FUNCTIONS: Record<string, Apply> = Object.fromEntries(await Promise.all(readdirSync(MIGRATIONS)
  .filter((f) => /^\d{3}-.*\.ts$/.test(f)).map(async (f) => [f, (await import(join(MIGRATIONS, f))).default as Apply])))

/**
 * Gives each test of the file a temp directory (removed after it) and returns `databaseAt(version, seed)`: the path of
 * a database file at schema `version`, built by the migrations up to it (foreign keys off for those that ask and for
 * functions, as db.ts migrate() does), holding the rows `seed` inserts.
 */
export function oldDatabases(name: string) {
  let dir = ''
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), `collab-${name}-`))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  return (version: number, seed: string): string => {
    const file = join(dir, 'collab.db')
    const db = new Database(file)
    db.pragma('foreign_keys = ON')
    const later = String(version + 1).padStart(3, '0')
    for (const f of readdirSync(MIGRATIONS).filter((n) => /^\d{3}-/.test(n) && n < later).sort()) {
      if (FUNCTIONS[f]) {
        db.pragma('foreign_keys = OFF')
        db.transaction(() => FUNCTIONS[f](db))()
        db.pragma('foreign_keys = ON')
        continue
      }
      const sql = readFileSync(join(MIGRATIONS, f), 'utf8')
      if (sql.startsWith('-- foreign-keys: off')) db.pragma('foreign_keys = OFF')
      db.exec(sql)
      db.pragma('foreign_keys = ON')
    }
    db.pragma(`user_version = ${version}`)
    db.exec(seed)
    db.close()
    return file
  }
}
