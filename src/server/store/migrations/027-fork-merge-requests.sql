-- foreign-keys: off
-- A merge request outlives the fork it came from, as in GitLab (merge_requests.source_project_id is nullable there, its
-- foreign key ON DELETE SET NULL): deleting a fork used to cascade into every merge request it opened upstream, with
-- their discussions, approvals and events. SQLite changes a foreign key only by rebuilding the table; the first line
-- makes the runner apply this file with foreign keys off and check them before committing, so the children (reviewers,
-- closing issues, commits, approvals, pipelines, state events, the noteables row) keep pointing at the same ids.
CREATE TABLE merge_requests_new (
  id INTEGER PRIMARY KEY REFERENCES noteables(id) ON DELETE CASCADE,
  -- The target project (GitLab's project_id); the source may be a fork.
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  iid INTEGER NOT NULL,
  -- NULL once the source project (a fork) is deleted: GitLab's source_project_missing?.
  source_project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,
  source_branch TEXT NOT NULL,
  target_branch TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL DEFAULT 'opened',
  author_id INTEGER NOT NULL REFERENCES users(id),
  milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
  discussion_locked INTEGER,
  time_estimate INTEGER NOT NULL DEFAULT 0,
  total_time_spent INTEGER NOT NULL DEFAULT 0,
  user_notes_count INTEGER NOT NULL DEFAULT 0,
  -- What the last mergeability check found, for the heads it names (recomputed when either branch moves).
  merge_status TEXT NOT NULL DEFAULT 'unchecked',
  git_merge_status TEXT NOT NULL DEFAULT 'unchecked',
  source_sha TEXT,
  target_sha TEXT,
  base_sha TEXT,
  changes_count TEXT,
  merge_when_pipeline_succeeds INTEGER NOT NULL DEFAULT 0,
  merge_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  should_remove_source_branch INTEGER,
  force_remove_source_branch INTEGER NOT NULL DEFAULT 0,
  squash INTEGER NOT NULL DEFAULT 0,
  allow_collaboration INTEGER NOT NULL DEFAULT 0,
  merge_commit_sha TEXT,
  squash_commit_sha TEXT,
  merge_error TEXT,
  merged_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  merged_at TEXT,
  closed_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  closed_at TEXT,
  prepared_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- Migration 024: what a merge deferred to the head pipeline asked for.
  merge_params TEXT
);
INSERT INTO merge_requests_new SELECT id, project_id, iid, source_project_id, source_branch, target_branch, title,
  description, state, author_id, milestone_id, discussion_locked, time_estimate, total_time_spent, user_notes_count,
  merge_status, git_merge_status, source_sha, target_sha, base_sha, changes_count, merge_when_pipeline_succeeds,
  merge_user_id, should_remove_source_branch, force_remove_source_branch, squash, allow_collaboration, merge_commit_sha,
  squash_commit_sha, merge_error, merged_by_id, merged_at, closed_by_id, closed_at, prepared_at, created_at, updated_at,
  merge_params
  FROM merge_requests;
-- Dropping the table drops its indexes and its trigger; they are created again below, as 008 and 010 wrote them.
DROP TABLE merge_requests;
ALTER TABLE merge_requests_new RENAME TO merge_requests;
CREATE UNIQUE INDEX merge_requests_project_iid ON merge_requests(project_id, iid);
CREATE INDEX merge_requests_project_state_created ON merge_requests(project_id, state, created_at, id);
CREATE INDEX merge_requests_project_created ON merge_requests(project_id, created_at, id);
CREATE INDEX merge_requests_target ON merge_requests(project_id, target_branch, state);
CREATE INDEX merge_requests_source ON merge_requests(source_project_id, source_branch, state);
CREATE INDEX merge_requests_author ON merge_requests(author_id);
CREATE INDEX merge_requests_merge_commit ON merge_requests(project_id, merge_commit_sha);
-- A merge request still goes with its target project; its noteables row, and with it the discussion, must go too.
CREATE TRIGGER merge_requests_noteable_gone AFTER DELETE ON merge_requests
BEGIN
  DELETE FROM noteables WHERE id = old.id;
END;
