-- The one application settings record. Only values an administrator set are stored (a JSON object);
-- the rest are the defaults in code, so a setting added later needs no migration.
CREATE TABLE application_settings (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  settings TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- The last `git fsck` of each repository (GitLab's last_repository_check_at / last_repository_check_failed).
CREATE TABLE repository_checks (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  checked_at TEXT NOT NULL,
  failed INTEGER NOT NULL,
  output TEXT NOT NULL DEFAULT ''
);

-- Pushes since the last `git gc`, which decide the next housekeeping task (GitLab's pushes_since_gc).
CREATE TABLE repository_housekeeping (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  pushes_since_gc INTEGER NOT NULL DEFAULT 0
);
