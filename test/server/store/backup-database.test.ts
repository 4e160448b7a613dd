// The database's part of a backup: the image taken in one read holds the writes of the open group, as the stepped copy
// does, with the facts read from the same state; a database past the image's limit goes through the stepped copy, and
// either way the archive restores into a database that passes SQLite's integrity check.
import Database from 'better-sqlite3'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dataLayout } from '../../../src/core/paths.js'
import { createBackup } from '../../../src/server/services/instance/backup.js'
import { restoreBackup } from '../../../src/server/services/instance/backup-restore.js'
import { copyDatabase, imageOfDatabase } from '../../../src/server/store/backup.js'
import { closeDatabase, openDatabase, schemaVersion, stmt, type Db } from '../../../src/server/store/db.js'

let dir: string
let db: Db

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'collab-backup-db-'))
  mkdirSync(join(dir, 'data'))
  db = openDatabase(join(dir, 'data', 'collab.db'))
})
afterEach(() => {
  if (db.open) closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

/** A user row written in the connection's group transaction, not yet committed when this returns. */
const addUser = (name: string) =>
  stmt(db, 'INSERT INTO users (username, email, name, created_at) VALUES (?, ?, ?, ?)').run(name, `${name}@example.com`, name, 'now')

const usernames = (file: string) => {
  const copy = new Database(file, { readonly: true })
  try {
    return copy.prepare('SELECT username FROM users ORDER BY id').pluck().all()
  } finally {
    copy.close()
  }
}

describe('imageOfDatabase', () => {
  it('holds the writes of the open group and reads its facts from the same state as the stepped copy', async () => {
    addUser('ann')
    expect(db.inTransaction).toBe(true)
    const image = imageOfDatabase(db)!
    expect(db.inTransaction).toBe(false)
    writeFileSync(join(dir, 'image.db'), image.bytes)
    await copyDatabase(db, join(dir, 'stepped.db'))
    expect(usernames(join(dir, 'image.db'))).toEqual(usernames(join(dir, 'stepped.db')))
    expect(usernames(join(dir, 'image.db'))).toContain('ann')
    expect(image.schema).toBe(schemaVersion())
    expect(image.owners).toEqual({ job: 0, package: 0, packageFile: 0 })
  })

  it('answers null for a database larger than its limit', () => {
    expect(imageOfDatabase(db, 4096)).toBeNull()
  })
})

describe('createBackup of a database past the image limit', () => {
  it('copies it in steps, and the archive restores it whole', async () => {
    addUser('bea')
    // 40 MB of rows past the 32 MB image limit.
    db.exec('CREATE TABLE padding (bytes BLOB)')
    const insert = db.prepare('INSERT INTO padding VALUES (randomblob(1048576))')
    for (let i = 0; i < 40; i++) insert.run()
    expect(imageOfDatabase(db)).toBeNull()
    const layout = dataLayout(join(dir, 'data'))
    writeFileSync(layout.secrets, '{}\n')
    const archive = await createBackup({ db, layout, now: () => new Date(0), source: 'server' })
    const restored = join(dir, 'restored')
    const summary = await restoreBackup(archive, restored)
    expect(summary.schema_version).toBe(schemaVersion())
    expect(usernames(join(restored, 'collab.db'))).toContain('bea')
    const copy = new Database(join(restored, 'collab.db'), { readonly: true })
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
      expect(copy.prepare('SELECT COUNT(*) FROM padding').pluck().get()).toBe(40)
    } finally {
      copy.close()
    }
  })
})
