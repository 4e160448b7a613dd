// The store's write tracking on a real SQLite file: reads remembered by the tables writes declare, rollbacks, group commit.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cachedRead, closeDatabase, committed, openDatabase, stmt, transaction, write, writeGeneration, type Db } from '../../../src/server/store/db.js'
import { tablesWrittenWith, TRIGGER_WRITES } from '../../../src/server/store/tables.js'

let dir: string
let db: Db

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'collab-writes-'))
  db = openDatabase(join(dir, 'collab.db'))
  stmt(db, "INSERT INTO users (username, email, name, created_at) VALUES ('ann', 'ann@example.com', 'Ann', 'now')").run()
})

afterEach(() => {
  if (db.open) closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

const userName = () => cachedRead(db, 'user:1', ['users'], () => (stmt(db, 'SELECT name FROM users WHERE id = 1').get() as { name: string }).name)
const tokenCount = () => cachedRead(db, 'tokens', ['tokens'], () => (stmt(db, 'SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n)
const addToken = (hash: string) => write(db, 'tokens', "INSERT INTO tokens (user_id, kind, name, token_hash, scopes, created_at) VALUES (1, 'personal', 't', ?, 'api', 'now')").run(hash)
const settle = async () => { await committed(db) }

describe('remembered reads', () => {
  it('survive writes to other tables and are forgotten by a write to theirs', async () => {
    expect(userName()).toBe('Ann')
    write(db, 'users', "UPDATE users SET name = 'Anne' WHERE id = 1").run()
    expect(userName()).toBe('Anne')
    expect(tokenCount()).toBe(0)
    // A row written behind the cache's back (a statement the store does not track) shows whether a read is answered from memory.
    db.prepare("INSERT INTO tokens (user_id, kind, name, token_hash, scopes, created_at) VALUES (1, 'personal', 't', 'behind', 'api', 'now')").run()
    write(db, 'users', "UPDATE users SET bio = 'x' WHERE id = 1").run()
    expect(tokenCount()).toBe(0)
    addToken('h1')
    expect(tokenCount()).toBe(2)
    await settle()
  })

  it('are forgotten when a delete cascades into their table', async () => {
    addToken('h1')
    expect(tokenCount()).toBe(1)
    write(db, 'users', 'DELETE FROM users WHERE id = 1').run()
    expect(tokenCount()).toBe(0)
    await settle()
  })

  it('taken inside a transaction that rolls back are forgotten with it', async () => {
    expect(() => transaction(db, () => {
      addToken('h1')
      expect(tokenCount()).toBe(1)
      throw new Error('abandon')
    })).toThrow('abandon')
    expect(tokenCount()).toBe(0)
    await settle()
  })

  it('a write moves the generation that the response cache keys on', () => {
    const before = writeGeneration(db)
    userName()
    expect(writeGeneration(db)).toBe(before)
    addToken('h1')
    expect(writeGeneration(db)).toBeGreaterThan(before)
  })
})

describe('the tables a write changes', () => {
  it('include those a conflicting row deleted by UPDATE OR REPLACE cascades into', async () => {
    addToken('h1')
    write(db, 'users', "INSERT INTO users (username, email, name, created_at) VALUES ('bob', 'bob@example.com', 'Bob', 'now')").run()
    expect(tokenCount()).toBe(1)
    // Ann's row is in the way of Bob's new name and is deleted; her tokens go with it.
    write(db, 'users', "UPDATE OR REPLACE users SET username = 'ann', email = 'ann@example.com' WHERE username = 'bob'").run()
    expect(tokenCount()).toBe(0)
    await settle()
  })

  it('are the declared table, what its triggers write and what its foreign-key actions reach', () => {
    expect(tablesWrittenWith(db, 'tokens', false)).toEqual(['tokens'])
    // Only deleted rows set foreign-key actions off.
    expect(tablesWrittenWith(db, 'users', false)).toEqual(['users'])
    expect(tablesWrittenWith(db, 'users', true)).toEqual(expect.arrayContaining(['users', 'tokens', 'project_members']))
    // A label on an issue: the label counts and the list version (its triggers), then the issue's own triggers.
    expect(tablesWrittenWith(db, 'noteable_labels', false)).toEqual(['issue_counts', 'issue_label_counts', 'issue_list_clock', 'issues', 'noteable_labels'])
  })

  it('are every table when a trigger on the way is not declared', async () => {
    // The closure of a table is worked out once per connection; a fresh connection sees the new trigger.
    db.exec("CREATE TRIGGER audit AFTER UPDATE OF bio ON users BEGIN UPDATE tokens SET name = 'audited' WHERE user_id = new.id; END")
    closeDatabase(db)
    db = openDatabase(join(dir, 'collab.db'))
    expect(TRIGGER_WRITES.audit).toBeUndefined()
    expect(tablesWrittenWith(db, 'users', false)).toBeNull()
    expect(tablesWrittenWith(db, 'tokens', false)).toEqual(['tokens'])
  })

  it('are every table for a write that declares none: it forgets every remembered read', async () => {
    expect(userName()).toBe('Ann')
    db.prepare("UPDATE users SET name = 'Behind' WHERE id = 1").run()
    addToken('h1')
    expect(userName()).toBe('Ann')
    stmt(db, "INSERT INTO tokens (user_id, kind, name, token_hash, scopes, created_at) VALUES (1, 'personal', 't', 'h2', 'api', 'now')").run()
    expect(userName()).toBe('Behind')
    await settle()
  })
})

describe('the connection', () => {
  // The connection's busy timeout is 0, so the refusal is immediate rather than a wait for the lock.
  it('holds the database for itself: a second opening fails with a clear error', () => {
    expect(() => openDatabase(join(dir, 'collab.db'))).toThrow(/in use by another process/)
    // The first connection is unharmed.
    expect(userName()).toBe('Ann')
  })
})

describe('group commit', () => {
  it('commits every write of one event-loop turn together, after the turn', async () => {
    addToken('h1')
    transaction(db, () => addToken('h2'))
    // Both writes sit in one open transaction until the turn ends...
    expect(db.inTransaction).toBe(true)
    await settle()
    // ...which then commits them: closing without committing would have rolled them back.
    expect(db.inTransaction).toBe(false)
    db.close()
    const again = new Database(join(dir, 'collab.db'), { readonly: true })
    try {
      expect((again.prepare('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n).toBe(2)
    } finally {
      again.close()
    }
  })

  it('rolls back a failing unit of work alone, keeping the others of its group', async () => {
    transaction(db, () => addToken('kept-1'))
    expect(() => transaction(db, () => {
      addToken('lost')
      addToken('kept-1') // duplicate hash: the unit fails
    })).toThrow(/UNIQUE/)
    transaction(db, () => addToken('kept-2'))
    await settle()
    const hashes = (db.prepare('SELECT token_hash FROM tokens ORDER BY id').all() as { token_hash: string }[]).map((r) => r.token_hash)
    expect(hashes).toEqual(['kept-1', 'kept-2'])
  })

  it('is committed, not lost, when the connection closes first', () => {
    addToken('h1')
    closeDatabase(db)
    const again = new Database(join(dir, 'collab.db'), { readonly: true })
    try {
      expect((again.prepare('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n).toBe(1)
    } finally {
      again.close()
    }
  })

  it('reports a failed COMMIT to whoever waits for it, and forgets what was read inside', async () => {
    addToken('h1')
    expect(tokenCount()).toBe(1)
    const pending = committed(db)!
    // Simulate SQLite abandoning the transaction (as on a full disk) before the group commits.
    db.prepare('ROLLBACK').run()
    await expect(pending).rejects.toThrow(/rolled back/)
    expect(tokenCount()).toBe(0)
  })
})
