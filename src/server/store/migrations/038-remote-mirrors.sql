-- Push mirrors (GitLab's remote_mirrors): a URL kept without its credentials, which are sealed apart in `credentials`
-- (JSON {"user","password"}, sealed with the server key like every secret the server sends on), and the state of the
-- last update as the API shows it. update_status is none, started, finished, to_retry or failed.
CREATE TABLE remote_mirrors (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  credentials TEXT,
  enabled INTEGER NOT NULL DEFAULT 0,
  auth_method TEXT NOT NULL DEFAULT 'password',
  only_protected_branches INTEGER NOT NULL DEFAULT 0,
  keep_divergent_refs INTEGER NOT NULL DEFAULT 0,
  mirror_branch_regex TEXT,
  update_status TEXT NOT NULL DEFAULT 'none',
  last_update_at TEXT,
  last_update_started_at TEXT,
  last_successful_update_at TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX remote_mirrors_project ON remote_mirrors(project_id);
