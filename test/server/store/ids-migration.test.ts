// Migration 032 on a database an earlier release left with data: every row, index, trigger and foreign key survives the
// rebuild, and afterwards the id of a deleted newest row is not handed out again.
import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { closeDatabase, openDatabase, type Db } from '../../../src/server/store/db.js'
import idsNeverReused from '../../../src/server/store/migrations/032-ids-never-reused.js'
import { oldDatabases } from '../../helpers/migrations.js'

const databaseAt = oldDatabases('ids-migration')

/** Two users, projects, issues (one labelled), notes, a pipeline with two jobs, tokens and a push event; gaps in the ids. */
const SEED = `
  INSERT INTO users (id, username, email, name, created_at) VALUES (1, 'ann', 'ann@example.com', 'Ann', 't'), (4, 'bo', 'bo@example.com', 'Bo', 't');
  INSERT INTO tokens (id, user_id, kind, name, token_hash, scopes, created_at) VALUES (3, 1, 'personal', 'cli', 'h1', 'api', 't');
  INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at) VALUES (1, 'user', 'ann', 'ann', 'ann', 'Ann', 't');
  INSERT INTO projects (id, namespace_id, name, path, creator_id, created_at, updated_at, last_activity_at, runners_token)
    VALUES (2, 1, 'p', 'p', 1, 't', 't', 't', 'x'), (6, 1, 'q', 'q', 4, 't', 't', 't', 'y');
  INSERT INTO labels (id, project_id, name, color, created_at, updated_at) VALUES (8, 2, 'bug', '#f00', 't', 't');
  INSERT INTO noteables (id, kind, project_id) VALUES (5, 'Issue', 2), (9, 'Issue', 6);
  INSERT INTO noteable_labels (noteable_id, label_id) VALUES (5, 8);
  INSERT INTO issues (id, project_id, iid, title, author_id, created_at, updated_at) VALUES (5, 2, 1, 'first', 1, 't', 't'), (9, 6, 1, 'second', 4, 't', 't');
  INSERT INTO notes (id, noteable_id, author_id, body, created_at, updated_at) VALUES (20, 5, 1, 'hello', 't', 't'), (21, 9, 1, 'hi', 't', 't');
  INSERT INTO pipelines (id, project_id, iid, sha, ref, source, created_at, updated_at) VALUES (30, 6, 1, 'abc', 'main', 'push', 't', 't');
  INSERT INTO ci_jobs (id, project_id, pipeline_id, name, stage, stage_idx, spec, ref, sha, created_at, updated_at)
    VALUES (40, 6, 30, 'build', 'build', 0, '{}', 'main', 'abc', 't', 't'), (41, 6, 30, 'test', 'test', 1, '{}', 'main', 'abc', 't', 't');
  INSERT INTO events (id, project_id, author_id, action, created_at) VALUES (50, 6, 4, 'pushed', 't');
  INSERT INTO push_event_payloads (event_id, commit_count, action, ref_type) VALUES (50, 1, 'pushed', 'branch');
`

interface Entry { type: string; name: string; tbl_name: string; sql: string }

const entries = (db: Database.Database) =>
  db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as Entry[]

/** Each table's rows (sorted, WITHOUT ROWID tables have no rowid to order by) and foreign keys. */
function contents(db: Database.Database) {
  return Object.fromEntries(entries(db).filter((e) => e.type === 'table').map((t) => [t.name, {
    rows: (db.prepare(`SELECT * FROM "${t.name}"`).raw().all()).map((r) => JSON.stringify(r)).sort(),
    foreignKeys: db.pragma(`foreign_key_list("${t.name}")`),
  }]))
}

it('rebuilds the tables that reuse ids with AUTOINCREMENT, keeping every row, index, trigger and foreign key', () => {
  const db = new Database(databaseAt(28, SEED))
  try {
    const before = entries(db)
    const held = contents(db)
    db.pragma('foreign_keys = OFF')
    db.transaction(() => idsNeverReused(db))()
    db.pragma('foreign_keys = ON')
    const after = entries(db)

    // Indexes (the automatic ones of UNIQUE constraints too) and triggers are the same, word for word.
    expect(after.filter((e) => e.type !== 'table')).toEqual(before.filter((e) => e.type !== 'table'))
    // Tables are the same but for the one word, added where SQLite allocated the id.
    const plain = (list: Entry[]) => list.filter((e) => e.type === 'table').map((e) => ({ ...e, sql: e.sql.replace(' AUTOINCREMENT', '') }))
    expect(plain(after)).toEqual(plain(before))
    const gained = after.filter((e) => e.sql !== before.find((b) => b.name === e.name)!.sql).map((e) => e.name)
    expect(gained).toEqual(expect.arrayContaining(['ci_jobs', 'labels', 'namespaces', 'noteables', 'notes', 'pipelines', 'projects', 'tokens', 'users']))
    expect(gained).not.toEqual(expect.arrayContaining(['issues']))
    expect(after.find((e) => e.name === 'users')!.sql).toMatch(/\bid INTEGER PRIMARY KEY AUTOINCREMENT,/)

    expect(contents(db)).toEqual(held)
    expect(db.pragma('foreign_key_check')).toEqual([])
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    // The next id of each rebuilt table is past its largest row's.
    expect(db.prepare("SELECT name, seq FROM sqlite_sequence WHERE name IN ('users', 'projects', 'noteables', 'notes', 'ci_jobs', 'events') ORDER BY name").all())
      .toEqual([{ name: 'ci_jobs', seq: 41 }, { name: 'events', seq: 50 }, { name: 'noteables', seq: 9 }, { name: 'notes', seq: 21 },
        { name: 'projects', seq: 6 }, { name: 'users', seq: 4 }])
  } finally {
    db.close()
  }
})

const insertedId = (db: Db, sql: string) => Number(db.prepare(sql).run().lastInsertRowid)

it('after the upgrade, gives a new row a new id where the newest row was deleted, with triggers and cascades working', () => {
  const db = openDatabase(databaseAt(28, SEED))
  try {
    db.exec('DELETE FROM ci_jobs WHERE id = 41; DELETE FROM notes WHERE id = 21')
    // The project goes with its issue (and noteable), pipeline, jobs and events; then its creator.
    db.exec('DELETE FROM projects WHERE id = 6; DELETE FROM users WHERE id = 4')
    expect(db.prepare('SELECT (SELECT COUNT(*) FROM noteables WHERE id = 9) + (SELECT COUNT(*) FROM ci_jobs) + (SELECT COUNT(*) FROM events) AS n').get()).toEqual({ n: 0 })

    const project = insertedId(db, "INSERT INTO projects (namespace_id, name, path, creator_id, created_at, updated_at, last_activity_at, runners_token) VALUES (1, 'r', 'r', 1, 't', 't', 't', 'z')")
    const noteable = insertedId(db, `INSERT INTO noteables (kind, project_id) VALUES ('Issue', ${project})`)
    db.exec(`INSERT INTO issues (id, project_id, iid, title, author_id, created_at, updated_at) VALUES (${noteable}, ${project}, 1, 'new', 1, 't', 't')`)
    const note = insertedId(db, `INSERT INTO notes (noteable_id, author_id, body, created_at, updated_at) VALUES (${noteable}, 1, 'x', 't', 't')`)
    const pipeline = insertedId(db, `INSERT INTO pipelines (project_id, iid, sha, ref, source, created_at, updated_at) VALUES (${project}, 1, 'abc', 'main', 'push', 't', 't')`)
    const job = insertedId(db, `INSERT INTO ci_jobs (project_id, pipeline_id, name, stage, stage_idx, spec, ref, sha, created_at, updated_at) VALUES (${project}, ${pipeline}, 'build', 'build', 0, '{}', 'main', 'abc', 't', 't')`)
    const user = insertedId(db, "INSERT INTO users (username, email, name, created_at) VALUES ('cy', 'cy@example.com', 'Cy', 't')")
    expect({ project, noteable, note, pipeline, job, user }).toEqual({ project: 7, noteable: 10, note: 22, pipeline: 31, job: 42, user: 5 })

    // Migration 026's triggers still count issues by project and state.
    expect(db.prepare('SELECT project_id, state, n FROM issue_counts WHERE n > 0 ORDER BY project_id').all())
      .toEqual([{ project_id: 2, state: 'opened', n: 1 }, { project_id: 7, state: 'opened', n: 1 }])
  } finally {
    closeDatabase(db)
  }
})
