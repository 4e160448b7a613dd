// Migration 012 rebuilds noteables with a nullable project (personal snippets) and keeps every child row with its id.
import { expect, it } from 'vitest'
import { openDatabase, stmt, type Db } from '../../../src/server/store/db.js'
import { oldDatabases } from '../../helpers/migrations.js'

const databaseAt = oldDatabases('snippets')

/** A database at schema 11 with one issue and its discussion. */
const schemaElevenWithAnIssue = () => databaseAt(11, `
    INSERT INTO users (id, username, email, name, created_at) VALUES (1, 'ann', 'ann@example.com', 'Ann', 't');
    INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at) VALUES (1, 'user', 'ann', 'ann', 'ann', 'Ann', 't');
    INSERT INTO projects (id, namespace_id, name, path, creator_id, created_at, updated_at, last_activity_at, runners_token)
      VALUES (1, 1, 'p', 'p', 1, 't', 't', 't', 'x');
    INSERT INTO noteables (id, kind, project_id) VALUES (3, 'Issue', 1);
    INSERT INTO issues (id, project_id, iid, title, author_id, created_at, updated_at) VALUES (3, 1, 1, 'first', 1, 't', 't');
    INSERT INTO notes (id, noteable_id, author_id, body, created_at, updated_at) VALUES (5, 3, 1, 'hello', 't', 't');
    INSERT INTO award_emoji (id, noteable_id, user_id, name, created_at, updated_at) VALUES (4, 3, 1, 'thumbsup', 't', 't');
  `)

const all = (db: Db, sql: string) => stmt(db, sql).all()

it('keeps noteables and their children, takes a noteable without a project, and still cascades', () => {
  const db = openDatabase(schemaElevenWithAnIssue())
  try {
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(12)
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(all(db, 'SELECT id, kind, project_id FROM noteables')).toEqual([{ id: 3, kind: 'Issue', project_id: 1 }])
    expect(all(db, 'SELECT id, noteable_id FROM notes')).toEqual([{ id: 5, noteable_id: 3 }])
    expect(all(db, 'SELECT id, noteable_id FROM award_emoji')).toEqual([{ id: 4, noteable_id: 3 }])
    stmt(db, "INSERT INTO noteables (id, kind, project_id) VALUES (8, 'Snippet', NULL)").run()
    stmt(db, 'DELETE FROM projects WHERE id = 1').run()
    expect(all(db, 'SELECT id FROM issues')).toEqual([])
    expect(all(db, 'SELECT id FROM notes')).toEqual([])
    expect(all(db, 'SELECT id, project_id FROM noteables')).toEqual([{ id: 8, project_id: null }])
    expect(db.pragma('foreign_key_check')).toEqual([])
  } finally {
    db.close()
  }
})
