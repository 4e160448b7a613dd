// Migration 023 rebuilds labels and milestones with a nullable project_id and a group_id, keeping every id and link.
import { expect, it } from 'vitest'
import { closeDatabase, openDatabase, stmt, type Db } from '../../src/server/store/db.js'
import { oldDatabases } from '../helpers/migrations.js'

const databaseAt = oldDatabases('group-labels')

/** A database at schema 22 with a project label on an issue, a subscriber, and a milestone the issue has. */
const schemaTwentyTwo = () => databaseAt(22, `
    INSERT INTO users (id, username, email, name, created_at) VALUES (1, 'ann', 'ann@example.com', 'Ann', 't');
    INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at) VALUES (1, 'user', 'ann', 'ann', 'ann', 'Ann', 't');
    INSERT INTO projects (id, namespace_id, name, path, creator_id, created_at, updated_at, last_activity_at, runners_token)
      VALUES (1, 1, 'p', 'p', 1, 't', 't', 't', 'x');
    INSERT INTO labels (id, project_id, name, color, priority, created_at, updated_at) VALUES (4, 1, 'bug', '#f00', 2, 't', 't');
    INSERT INTO milestones (id, project_id, iid, title, state, created_at, updated_at, closed_at) VALUES (6, 1, 3, 'v1', 'closed', 't', 't', 'c');
    INSERT INTO noteables (id, kind, project_id) VALUES (9, 'Issue', 1);
    INSERT INTO issues (id, project_id, iid, title, author_id, milestone_id, created_at, updated_at) VALUES (9, 1, 1, 'i', 1, 6, 't', 't');
    INSERT INTO noteable_labels VALUES (9, 4);
    INSERT INTO label_subscriptions VALUES (4, 1);
  `)

const all = (db: Db, sql: string) => stmt(db, sql).all()

it('keeps labels, milestones and what points at them, with group_id null', () => {
  const db = openDatabase(schemaTwentyTwo())
  try {
    expect(all(db, 'SELECT id, project_id, group_id, name, priority FROM labels')).toEqual([{ id: 4, project_id: 1, group_id: null, name: 'bug', priority: 2 }])
    expect(all(db, 'SELECT id, project_id, group_id, iid, title, state, closed_at FROM milestones'))
      .toEqual([{ id: 6, project_id: 1, group_id: null, iid: 3, title: 'v1', state: 'closed', closed_at: 'c' }])
    expect(all(db, 'SELECT * FROM noteable_labels')).toEqual([{ noteable_id: 9, label_id: 4 }])
    expect(all(db, 'SELECT * FROM label_subscriptions')).toEqual([{ label_id: 4, user_id: 1 }])
    expect(all(db, 'SELECT milestone_id FROM issues')).toEqual([{ milestone_id: 6 }])
    expect(db.pragma('foreign_key_check')).toEqual([])
    // Deleting the label still cascades to its links: the children reference the rebuilt table.
    stmt(db, 'DELETE FROM labels WHERE id = 4').run()
    expect(all(db, 'SELECT * FROM noteable_labels')).toEqual([])
  } finally {
    closeDatabase(db)
  }
})

it('holds each label and milestone to exactly one owner, and names unique per project and per group', () => {
  const db = openDatabase(schemaTwentyTwo())
  try {
    const label = stmt(db, "INSERT INTO labels (project_id, group_id, name, color, created_at, updated_at) VALUES (?, ?, ?, '#000', 't', 't')")
    expect(() => label.run(null, null, 'orphan')).toThrow(/CHECK constraint failed/)
    expect(() => label.run(1, 1, 'both')).toThrow(/CHECK constraint failed/)
    expect(() => label.run(1, null, 'bug')).toThrow(/UNIQUE constraint failed/)
    stmt(db, "INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at) VALUES (2, 'group', 'g', 'g', 'g', 'G', 't')").run()
    label.run(null, 2, 'bug')
    expect(() => label.run(null, 2, 'bug')).toThrow(/UNIQUE constraint failed/)
    const milestone = stmt(db, "INSERT INTO milestones (project_id, group_id, iid, title, created_at, updated_at) VALUES (?, ?, 1, ?, 't', 't')")
    expect(() => milestone.run(null, null, 'x')).toThrow(/CHECK constraint failed/)
    milestone.run(null, 2, 'v1')
    expect(() => milestone.run(null, 2, 'v2')).toThrow(/UNIQUE constraint failed/)
  } finally {
    closeDatabase(db)
  }
})
