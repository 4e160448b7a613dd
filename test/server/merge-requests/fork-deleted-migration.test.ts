// Migration 027 rebuilds merge_requests so a deleted fork leaves its merge requests (source_project_id NULL): every row,
// id and child is kept, and the target project's deletion still takes them along.
import { expect, it } from 'vitest'
import { closeDatabase, openDatabase, stmt, type Db } from '../../../src/server/store/db.js'
import { oldDatabases } from '../../helpers/migrations.js'

const databaseAt = oldDatabases('fork-merge-requests')

const SEED = `
  INSERT INTO users (id, username, email, name, created_at) VALUES (1, 'ann', 'ann@example.com', 'Ann', 't'), (2, 'bo', 'bo@example.com', 'Bo', 't');
  INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at) VALUES
    (1, 'user', 'ann', 'ann', 'ann', 'Ann', 't'), (2, 'user', 'bo', 'bo', 'bo', 'Bo', 't');
  INSERT INTO projects (id, namespace_id, name, path, creator_id, created_at, updated_at, last_activity_at, runners_token, forked_from_id)
    VALUES (1, 1, 'up', 'up', 1, 't', 't', 't', 'x', NULL), (2, 2, 'up', 'up', 2, 't', 't', 't', 'y', 1);
  INSERT INTO noteables (id, kind, project_id) VALUES (7, 'MergeRequest', 1), (8, 'MergeRequest', 1);
  INSERT INTO merge_requests (id, project_id, iid, source_project_id, source_branch, target_branch, title, author_id, state,
    merge_params, created_at, updated_at) VALUES
    (7, 1, 1, 2, 'fix', 'master', 'From the fork', 2, 'opened', '{"squash":true}', 't1', 't1'),
    (8, 1, 2, 1, 'own', 'master', 'Own branch', 1, 'merged', NULL, 't2', 't2');
  INSERT INTO merge_request_reviewers (merge_request_id, user_id, position) VALUES (7, 1, 0);
  INSERT INTO merge_request_approvals (merge_request_id, user_id, created_at) VALUES (7, 1, 't');
  INSERT INTO merge_request_commits (merge_request_id, sha) VALUES (7, 'abc'), (8, 'def');
  INSERT INTO notes (id, noteable_id, author_id, body, created_at, updated_at) VALUES (30, 7, 1, 'Looks good', 't', 't');
  INSERT INTO pipelines (id, project_id, iid, sha, ref, source, merge_request_id, created_at, updated_at)
    VALUES (40, 1, 1, 'abc', 'refs/merge-requests/1/head', 'merge_request_event', 7, 't', 't');
`

const rows = (db: Db, sql: string, ...args: unknown[]) => stmt(db, sql).all(...args)

it('keeps every merge request, its id and its children, and makes source_project_id nullable', () => {
  const db = openDatabase(databaseAt(26, SEED))
  try {
    expect(rows(db, 'SELECT id, project_id, iid, source_project_id, title, state, merge_params FROM merge_requests ORDER BY id')).toEqual([
      { id: 7, project_id: 1, iid: 1, source_project_id: 2, title: 'From the fork', state: 'opened', merge_params: '{"squash":true}' },
      { id: 8, project_id: 1, iid: 2, source_project_id: 1, title: 'Own branch', state: 'merged', merge_params: null },
    ])
    expect(rows(db, "SELECT name FROM sqlite_master WHERE tbl_name = 'merge_requests' AND type IN ('index', 'trigger') ORDER BY name")
      .map((r: any) => r.name)).toEqual([
      'merge_requests_author', 'merge_requests_merge_commit', 'merge_requests_noteable_gone', 'merge_requests_project_created',
      'merge_requests_project_iid', 'merge_requests_project_state_created', 'merge_requests_source', 'merge_requests_target',
    ])
    expect(rows(db, 'PRAGMA foreign_key_check')).toEqual([])

    // The fork goes: its merge request stays, with every child.
    stmt(db, 'DELETE FROM projects WHERE id = 2').run()
    expect(rows(db, 'SELECT id, source_project_id FROM merge_requests ORDER BY id')).toEqual([{ id: 7, source_project_id: null }, { id: 8, source_project_id: 1 }])
    expect(rows(db, 'SELECT merge_request_id, user_id FROM merge_request_reviewers')).toEqual([{ merge_request_id: 7, user_id: 1 }])
    expect(rows(db, 'SELECT merge_request_id FROM merge_request_approvals')).toEqual([{ merge_request_id: 7 }])
    expect(rows(db, 'SELECT id, noteable_id FROM notes')).toEqual([{ id: 30, noteable_id: 7 }])
    expect(rows(db, 'SELECT id, merge_request_id FROM pipelines')).toEqual([{ id: 40, merge_request_id: 7 }])

    // The target goes: the merge requests, their discussion and children go with it, as before.
    stmt(db, 'DELETE FROM projects WHERE id = 1').run()
    expect(rows(db, 'SELECT id FROM merge_requests')).toEqual([])
    expect(rows(db, 'SELECT id FROM noteables')).toEqual([])
    expect(rows(db, 'SELECT id FROM notes')).toEqual([])
    expect(rows(db, 'SELECT merge_request_id FROM merge_request_commits')).toEqual([])
    expect(rows(db, 'SELECT merge_request_id FROM merge_request_approvals')).toEqual([])
    expect(rows(db, 'SELECT id FROM pipelines')).toEqual([])
  } finally {
    closeDatabase(db)
  }
})

it('deletes a merge request with its noteable row when the merge request itself is deleted', () => {
  const db = openDatabase(databaseAt(26, SEED))
  try {
    stmt(db, 'DELETE FROM merge_requests WHERE id = 7').run()
    expect(rows(db, 'SELECT id FROM noteables ORDER BY id')).toEqual([{ id: 8 }])
    expect(rows(db, 'SELECT id FROM notes')).toEqual([])
  } finally {
    closeDatabase(db)
  }
})
