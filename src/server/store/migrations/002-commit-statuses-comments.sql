-- Commit statuses posted by CI systems, and comments on commits.
CREATE TABLE commit_statuses (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  sha TEXT NOT NULL,
  ref TEXT,
  name TEXT NOT NULL,
  stage TEXT NOT NULL DEFAULT 'test',
  status TEXT NOT NULL,
  target_url TEXT,
  description TEXT,
  coverage REAL,
  pipeline_id INTEGER,
  allow_failure INTEGER NOT NULL DEFAULT 0,
  author_id INTEGER NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  -- Superseded rows are kept for `all=true`; only the newest per (sha, ref, name) is current.
  retried INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX commit_statuses_sha ON commit_statuses(project_id, sha, retried);

CREATE TABLE commit_comments (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  sha TEXT NOT NULL,
  note TEXT NOT NULL,
  path TEXT,
  line INTEGER,
  line_type TEXT,
  author_id INTEGER NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL
);
CREATE INDEX commit_comments_sha ON commit_comments(project_id, sha);
