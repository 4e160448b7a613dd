// A request that awaits other work after writing still hears that its group's COMMIT failed, even once the group is gone.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppDeps } from '../../../src/server/context.js'
import { afterCommit } from '../../../src/server/http/mount.js'
import { closeDatabase, committed, openDatabase, stmt, writeGeneration, type Db } from '../../../src/server/store/db.js'

let dir: string
let db: Db
let app: AppDeps

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'collab-group-'))
  db = openDatabase(join(dir, 'collab.db'))
  app = { db } as AppDeps
  stmt(db, "INSERT INTO users (username, email, name, created_at) VALUES ('ann', 'ann@example.com', 'Ann', 'now')").run()
})
afterEach(() => {
  if (db.open) closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

const addToken = () => stmt(db, "INSERT INTO tokens (user_id, kind, name, token_hash, scopes, created_at) VALUES (1, 'personal', 't', 'h', 'api', 'now')").run()

describe('afterCommit with the request start clock', () => {
  it('throws when a group holding writes made since the start failed before the answer', async () => {
    await committed(db)
    const start = writeGeneration(db)
    addToken()
    const pending = committed(db)!
    db.prepare('ROLLBACK').run() // as SQLite does on a full disk
    await pending.catch(() => {})
    // The failed group is gone: without the start clock nothing is left to wait for, and the failure went unheard.
    await expect(afterCommit(app)).resolves.toBeUndefined()
    await expect(afterCommit(app, start)).rejects.toThrow(/failed to commit/)
  })

  it('answers normally when the failure came before the request began', async () => {
    await committed(db)
    addToken()
    const pending = committed(db)!
    db.prepare('ROLLBACK').run()
    await pending.catch(() => {})
    const start = writeGeneration(db)
    addToken()
    await expect(afterCommit(app, start)).resolves.toBeUndefined()
  })
})
