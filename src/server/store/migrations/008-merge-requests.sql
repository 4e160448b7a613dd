-- Merge requests: a noteable kind (their id is a noteables id, so notes, awards, labels, assignees, subscriptions and
-- todos come from the shared discussion layer), with reviewers and the issues each one would close.
CREATE TABLE merge_requests (
  id INTEGER PRIMARY KEY REFERENCES noteables(id) ON DELETE CASCADE,
  -- The target project (GitLab's project_id); the source may be a fork.
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  iid INTEGER NOT NULL,
  source_project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
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
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX merge_requests_project_iid ON merge_requests(project_id, iid);
CREATE INDEX merge_requests_project_state_created ON merge_requests(project_id, state, created_at, id);
CREATE INDEX merge_requests_project_created ON merge_requests(project_id, created_at, id);
CREATE INDEX merge_requests_target ON merge_requests(project_id, target_branch, state);
CREATE INDEX merge_requests_source ON merge_requests(source_project_id, source_branch, state);
CREATE INDEX merge_requests_author ON merge_requests(author_id);
CREATE INDEX merge_requests_merge_commit ON merge_requests(project_id, merge_commit_sha);

CREATE TABLE merge_request_reviewers (
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (merge_request_id, user_id)
) WITHOUT ROWID;

-- The issues a merge request would close (GitLab's merge_requests_closing_issues), refreshed when it changes.
CREATE TABLE merge_request_closing_issues (
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  PRIMARY KEY (merge_request_id, issue_id)
) WITHOUT ROWID;
CREATE INDEX merge_request_closing_issues_issue ON merge_request_closing_issues(issue_id);

-- The commits of each merge request (its source head's commits the target lacked), for commits/:sha/merge_requests.
CREATE TABLE merge_request_commits (
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  sha TEXT NOT NULL,
  PRIMARY KEY (merge_request_id, sha)
) WITHOUT ROWID;
CREATE INDEX merge_request_commits_sha ON merge_request_commits(sha);
