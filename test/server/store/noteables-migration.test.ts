// Migration 007 moves the issue-only discussion tables onto the shared noteables layer, keeping every row and id.
import { expect, it } from 'vitest'
import { closeDatabase, openDatabase, stmt, type Db } from '../../../src/server/store/db.js'
import { oldDatabases } from '../../helpers/migrations.js'

const databaseAt = oldDatabases('noteables')

/** A database as collab left it at schema 6, with two issues, one moved to the other, and their discussion. */
const schemaSixWithIssues = () => databaseAt(6, `
    INSERT INTO users (id, username, email, name, created_at) VALUES (1, 'ann', 'ann@example.com', 'Ann', 't'), (2, 'bob', 'bob@example.com', 'Bob', 't');
    INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at) VALUES (1, 'user', 'ann', 'ann', 'ann', 'Ann', 't');
    INSERT INTO projects (id, namespace_id, name, path, creator_id, created_at, updated_at, last_activity_at, runners_token)
      VALUES (1, 1, 'p', 'p', 1, 't', 't', 't', 'x'), (2, 1, 'q', 'q', 1, 't', 't', 't', 'y');
    INSERT INTO labels (id, project_id, name, color, created_at, updated_at) VALUES (1, 1, 'bug', '#f00', 't', 't');
    INSERT INTO issues (id, project_id, iid, title, author_id, user_notes_count, created_at, updated_at, moved_to_id)
      VALUES (7, 2, 1, 'moved', 1, 1, 't', 't', NULL), (3, 1, 1, 'first', 1, 1, 't', 't', 7);
    INSERT INTO issue_labels VALUES (3, 1);
    INSERT INTO issue_assignees VALUES (3, 2, 0);
    INSERT INTO notes (id, issue_id, author_id, body, created_at, updated_at) VALUES (5, 3, 2, 'hello', 't', 't'), (6, 7, 2, 'hello', 't', 't');
    INSERT INTO award_emoji (id, issue_id, user_id, name, created_at, updated_at) VALUES (4, 3, 2, 'thumbsup', 't', 't');
    INSERT INTO issue_subscriptions VALUES (3, 2, 0);
    INSERT INTO todos (id, user_id, author_id, project_id, issue_id, action_name, body, created_at, updated_at) VALUES (9, 2, 1, 1, 3, 'assigned', 'first', 't', 't');
    INSERT INTO user_agent_details VALUES (3, 'curl', '127.0.0.1', 0);
  `)

const all = (db: Db, sql: string) => stmt(db, sql).all()

it('keeps every issue, note, award, label, assignee, subscription, todo and user agent detail with its id', () => {
  const db = openDatabase(schemaSixWithIssues())
  try {
    expect(all(db, 'SELECT id, kind, project_id FROM noteables ORDER BY id')).toEqual([{ id: 3, kind: 'Issue', project_id: 1 }, { id: 7, kind: 'Issue', project_id: 2 }])
    expect(all(db, 'SELECT id, title, moved_to_id, user_notes_count FROM issues ORDER BY id')).toEqual([
      { id: 3, title: 'first', moved_to_id: 7, user_notes_count: 1 }, { id: 7, title: 'moved', moved_to_id: null, user_notes_count: 1 }])
    expect(all(db, 'SELECT * FROM noteable_labels')).toEqual([{ noteable_id: 3, label_id: 1 }])
    expect(all(db, 'SELECT * FROM noteable_assignees')).toEqual([{ noteable_id: 3, user_id: 2, position: 0 }])
    expect(all(db, 'SELECT id, noteable_id FROM notes ORDER BY id')).toEqual([{ id: 5, noteable_id: 3 }, { id: 6, noteable_id: 7 }])
    expect(all(db, 'SELECT id, noteable_id, name FROM award_emoji')).toEqual([{ id: 4, noteable_id: 3, name: 'thumbsup' }])
    expect(all(db, 'SELECT * FROM subscriptions')).toEqual([{ noteable_id: 3, user_id: 2, subscribed: 0 }])
    expect(all(db, 'SELECT id, noteable_id FROM todos')).toEqual([{ id: 9, noteable_id: 3 }])
    expect(all(db, 'SELECT noteable_id, user_agent FROM user_agent_details')).toEqual([{ noteable_id: 3, user_agent: 'curl' }])
    expect(db.pragma('foreign_key_check')).toEqual([])

    // Deleting the noteable takes its issue and its whole discussion; the moved-from issue forgets the target.
    stmt(db, 'DELETE FROM noteables WHERE id = 7').run()
    expect(all(db, 'SELECT id, moved_to_id FROM issues')).toEqual([{ id: 3, moved_to_id: null }])
    expect(all(db, 'SELECT id FROM notes')).toEqual([{ id: 5 }])
    // A project's deletion takes its noteables with it.
    stmt(db, 'DELETE FROM projects WHERE id = 1').run()
    expect(all(db, 'SELECT COUNT(*) AS n FROM noteables UNION ALL SELECT COUNT(*) FROM todos UNION ALL SELECT COUNT(*) FROM subscriptions'))
      .toEqual([{ n: 0 }, { n: 0 }, { n: 0 }])
  } finally {
    closeDatabase(db)
  }
})
