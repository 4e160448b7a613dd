// The store's write tracking on a real SQLite file: table-scoped read caching, rollbacks, and group commit.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cachedRead, closeDatabase, committed, openDatabase, stmt, transaction, writeGeneration, type Db } from '../../../src/server/store/db.js'
import { readBtrees, tablesOf, writtenBtrees } from '../../../src/server/store/explain.js'
import { cachedQuery } from '../../../src/server/store/writes.js'

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
const addToken = (hash: string) => stmt(db, "INSERT INTO tokens (user_id, kind, name, token_hash, scopes, created_at) VALUES (1, 'personal', 't', ?, 'api', 'now')").run(hash)
const settle = async () => { await committed(db) }

describe('remembered reads', () => {
  it('survive writes to other tables and are forgotten by a write to theirs', async () => {
    expect(userName()).toBe('Ann')
    stmt(db, "UPDATE users SET name = 'Anne' WHERE id = 1").run()
    expect(userName()).toBe('Anne')
    expect(tokenCount()).toBe(0)
    // A row written behind the cache's back (a statement the store does not track) shows whether a read is answered from memory.
    db.prepare("INSERT INTO tokens (user_id, kind, name, token_hash, scopes, created_at) VALUES (1, 'personal', 't', 'behind', 'api', 'now')").run()
    stmt(db, "UPDATE users SET bio = 'x' WHERE id = 1").run()
    expect(tokenCount()).toBe(0)
    addToken('h1')
    expect(tokenCount()).toBe(2)
    await settle()
  })

  it('are forgotten when a delete cascades into their table', async () => {
    addToken('h1')
    expect(tokenCount()).toBe(1)
    stmt(db, 'DELETE FROM users WHERE id = 1').run()
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

const writtenTables = (d: Db, sql: string) => tablesOf(writtenBtrees(d, sql))

describe('the tables a write changes', () => {
  it('include those a conflicting row deleted by UPDATE OR REPLACE cascades into', async () => {
    addToken('h1')
    stmt(db, "INSERT INTO users (username, email, name, created_at) VALUES ('bob', 'bob@example.com', 'Bob', 'now')").run()
    expect(tokenCount()).toBe(1)
    // Ann's row is in the way of Bob's new name and is deleted; her tokens go with it.
    stmt(db, "UPDATE OR REPLACE users SET username = 'ann', email = 'ann@example.com' WHERE username = 'bob'").run()
    expect(tokenCount()).toBe(0)
    await settle()
  })

  it('are what SQLite compiled: the target, its indexes, foreign-key actions and triggers', () => {
    // An insert into an AUTOINCREMENT table also records its largest id in sqlite_sequence.
    expect(writtenTables(db, "INSERT INTO tokens (user_id, kind, name, token_hash, scopes, created_at) VALUES (?, 'personal', 't', @hash, 'api', 'now')")).toEqual(['sqlite_sequence', 'tokens'])
    // A write after a WITH clause, and a DELETE without WHERE (compiled to a Clear of the table) are named too.
    expect(writtenTables(db, "WITH n(x) AS (SELECT 'h') INSERT INTO tokens (user_id, kind, name, token_hash, scopes, created_at) SELECT 1, 'personal', 't', x, 'api', 'now' FROM n")).toEqual(['sqlite_sequence', 'tokens'])
    expect(writtenTables(db, 'DELETE FROM tokens')).toEqual(['tokens'])
    expect(writtenTables(db, 'DELETE FROM users WHERE id = ?')).toEqual(expect.arrayContaining(['users', 'tokens', 'project_members']))
    expect(writtenTables(db, "UPDATE users SET bio = 'x' WHERE id = 1")).toEqual(['users'])
    db.exec("CREATE TRIGGER audit AFTER UPDATE OF bio ON users BEGIN UPDATE tokens SET name = 'audited' WHERE user_id = new.id; END")
    expect(writtenTables(db, "UPDATE users SET bio = 'y' WHERE id = 1")).toEqual(['tokens', 'users'])
    // Statements that change the schema or settings name no table: they count as changing everything.
    expect(writtenTables(db, 'CREATE TABLE scratch (x)')).toBeNull()
  })
})

describe('a remembered query', () => {
  const COUNT = 'SELECT COUNT(*) AS n FROM users'
  const userCount = () => cachedQuery(db, 'users', COUNT, ['users'], () => (stmt(db, COUNT).get() as { n: number }).n)

  it('depends on the b-trees its plan reads: a covering index alone, or the rows', () => {
    expect(readBtrees(db, COUNT)).toEqual([expect.stringMatching(/^sqlite_autoindex_users_/)])
    expect(readBtrees(db, 'SELECT name FROM users WHERE id = ?')).toEqual(['users'])
  })

  it('outlives writes that leave its index alone and is forgotten by one that changes it', async () => {
    expect(userCount()).toBe(1)
    // A row added behind the cache's back shows whether the count is answered from memory.
    db.prepare("INSERT INTO users (username, email, name, created_at) VALUES ('cy', 'cy@example.com', 'Cy', 'now')").run()
    stmt(db, "UPDATE users SET bio = 'x' WHERE id = 1").run()
    expect(userCount()).toBe(1)
    stmt(db, "INSERT INTO users (username, email, name, created_at) VALUES ('dee', 'dee@example.com', 'Dee', 'now')").run()
    expect(userCount()).toBe(3)
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
