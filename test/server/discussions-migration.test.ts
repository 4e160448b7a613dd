// Migration 018: every existing note gets a discussion of its own, and commit comments move into notes on commit
// noteables, keeping their text, author, time and line placement.
import { expect, it } from 'vitest'
import { closeDatabase, openDatabase, stmt, type Db } from '../../src/server/store/db.js'
import { oldDatabases } from '../helpers/migrations.js'

const databaseAt = oldDatabases('discussions')

/** A database at schema 17 with an issue and two notes, and three comments on two commits of one project. */
const schemaSeventeen = () => databaseAt(17, `
    INSERT INTO users (id, username, email, name, created_at) VALUES (1, 'ann', 'ann@example.com', 'Ann', 't');
    INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at) VALUES (1, 'user', 'ann', 'ann', 'ann', 'Ann', 't');
    INSERT INTO projects (id, namespace_id, name, path, creator_id, created_at, updated_at, last_activity_at, runners_token)
      VALUES (1, 1, 'p', 'p', 1, 't', 't', 't', 'x');
    INSERT INTO noteables (id, kind, project_id) VALUES (4, 'Issue', 1);
    INSERT INTO issues (id, project_id, iid, title, author_id, user_notes_count, created_at, updated_at) VALUES (4, 1, 1, 'i', 1, 2, 't', 't');
    INSERT INTO notes (id, noteable_id, author_id, body, created_at, updated_at) VALUES (8, 4, 1, 'one', 't1', 't1'), (9, 4, 1, 'two', 't2', 't2');
    INSERT INTO commit_comments (id, project_id, sha, note, path, line, line_type, author_id, created_at) VALUES
      (1, 1, 'bbb', 'placed', 'a.txt', 3, 'new', 1, 't3'), (2, 1, 'aaa', 'plain', NULL, NULL, NULL, 1, 't4'), (3, 1, 'bbb', 'again', NULL, NULL, NULL, 1, 't5');
  `)

const all = (db: Db, sql: string) => stmt(db, sql).all()

it('gives each note its own discussion and moves commit comments onto commit noteables', () => {
  const db = openDatabase(schemaSeventeen())
  try {
    const ids = all(db, 'SELECT discussion_id FROM notes WHERE noteable_id = 4 ORDER BY id') as { discussion_id: string }[]
    expect(ids.map((r) => /^[0-9a-f]{40}$/.test(r.discussion_id))).toEqual([true, true])
    expect(ids[0].discussion_id).not.toBe(ids[1].discussion_id)
    expect(all(db, 'SELECT id, project_id, sha, user_notes_count, updated_at FROM commit_noteables ORDER BY id')).toEqual([
      { id: 5, project_id: 1, sha: 'aaa', user_notes_count: 1, updated_at: 't4' }, { id: 6, project_id: 1, sha: 'bbb', user_notes_count: 2, updated_at: 't5' }])
    expect(all(db, "SELECT id, kind FROM noteables WHERE kind = 'Commit' ORDER BY id")).toEqual([{ id: 5, kind: 'Commit' }, { id: 6, kind: 'Commit' }])
    expect(all(db, 'SELECT noteable_id, body, type, position, created_at FROM notes WHERE noteable_id IN (5, 6) ORDER BY id')).toEqual([
      { noteable_id: 6, body: 'placed', type: 'LegacyDiffNote', position: '{"path":"a.txt","line":3,"line_type":"new"}', created_at: 't3' },
      { noteable_id: 5, body: 'plain', type: null, position: null, created_at: 't4' },
      { noteable_id: 6, body: 'again', type: null, position: null, created_at: 't5' },
    ])
    expect(all(db, "SELECT name FROM sqlite_master WHERE name = 'commit_comments'")).toEqual([])
    expect(db.pragma('foreign_key_check')).toEqual([])
    stmt(db, 'DELETE FROM projects WHERE id = 1').run()
    expect(all(db, 'SELECT COUNT(*) AS n FROM notes UNION ALL SELECT COUNT(*) FROM commit_noteables')).toEqual([{ n: 0 }, { n: 0 }])
  } finally {
    closeDatabase(db)
  }
})
