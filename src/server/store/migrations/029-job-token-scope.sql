-- CI/CD job token inbound scope (GitLab 17's "Limit access to this project"): which projects' job tokens may act on a
-- project. A project without a row keeps the scope on, GitLab's default for new projects, so only its own jobs do.
CREATE TABLE ci_job_token_scopes (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  inbound_enabled INTEGER NOT NULL
);

-- The inbound allowlist: job tokens of target_project_id (or of projects under target_group_id) may act on
-- source_project_id, with their users' own permissions.
CREATE TABLE ci_job_token_project_scope_links (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source_project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  target_project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  added_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  UNIQUE (source_project_id, target_project_id)
);
CREATE INDEX ci_job_token_project_scope_links_target ON ci_job_token_project_scope_links (target_project_id);

CREATE TABLE ci_job_token_group_scope_links (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source_project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  target_group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  added_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  UNIQUE (source_project_id, target_group_id)
);
CREATE INDEX ci_job_token_group_scope_links_target ON ci_job_token_group_scope_links (target_group_id);
