// Migration 026 counts the issues a database already holds, by project and state and by label, and gives them versions.
import { expect, it } from 'vitest'
import { closeDatabase, openDatabase, stmt } from '../../../src/server/store/db.js'
import { oldDatabases } from '../../helpers/migrations.js'

const databaseAt = oldDatabases('kept-counts')

it('counts existing issues by project and state, and by label, project and state', () => {
  const file = databaseAt(25, `
    INSERT INTO users (id, username, email, name, created_at) VALUES (1, 'ann', 'ann@example.com', 'Ann', 't');
    INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at) VALUES (1, 'user', 'ann', 'ann', 'ann', 'Ann', 't');
    INSERT INTO projects (id, namespace_id, name, path, creator_id, created_at, updated_at, last_activity_at, runners_token)
      VALUES (1, 1, 'p', 'p', 1, 't', 't', 't', 'x');
    INSERT INTO labels (id, project_id, name, color, created_at, updated_at) VALUES (4, 1, 'bug', '#f00', 't', 't');
    INSERT INTO noteables (id, kind, project_id) VALUES (7, 'Issue', 1), (8, 'Issue', 1), (9, 'Issue', 1);
    INSERT INTO issues (id, project_id, iid, title, author_id, state, created_at, updated_at) VALUES
      (7, 1, 1, 'a', 1, 'opened', 't', 't'), (8, 1, 2, 'b', 1, 'closed', 't', 't'), (9, 1, 3, 'c', 1, 'opened', 't', 't');
    INSERT INTO noteable_labels VALUES (7, 4), (8, 4);
  `)
  const db = openDatabase(file)
  try {
    expect(stmt(db, 'SELECT project_id, state, n FROM issue_counts ORDER BY state').all())
      .toEqual([{ project_id: 1, state: 'closed', n: 1 }, { project_id: 1, state: 'opened', n: 2 }])
    expect(stmt(db, 'SELECT label_id, project_id, state, n FROM issue_label_counts ORDER BY state').all())
      .toEqual([{ label_id: 4, project_id: 1, state: 'closed', n: 1 }, { label_id: 4, project_id: 1, state: 'opened', n: 1 }])
    // A later change gives the issue a version no other issue has had.
    stmt(db, "UPDATE issues SET title = 'A' WHERE id = 7").run()
    const versions = stmt(db, 'SELECT id, list_version FROM issues ORDER BY id').all()
    expect(versions).toEqual([{ id: 7, list_version: 1 }, { id: 8, list_version: 0 }, { id: 9, list_version: 0 }])
  } finally {
    closeDatabase(db)
  }
})
