-- Runners that take jobs over GitLab's runner protocol (POST /jobs/request …), and the registration tokens of the
-- legacy `POST /runners` flow. Tokens are kept as SHA-256 hashes: an authentication token is shown once, at creation.
CREATE TABLE ci_runners (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  runner_type TEXT NOT NULL CHECK (runner_type IN ('instance_type', 'group_type', 'project_type')),
  token_hash TEXT NOT NULL UNIQUE,
  token_expires_at TEXT,
  description TEXT NOT NULL DEFAULT '',
  maintenance_note TEXT,
  paused INTEGER NOT NULL DEFAULT 0,
  locked INTEGER NOT NULL DEFAULT 0,
  run_untagged INTEGER NOT NULL DEFAULT 1,
  -- JSON array of tag names, sorted.
  tag_list TEXT NOT NULL DEFAULT '[]',
  access_level TEXT NOT NULL DEFAULT 'not_protected' CHECK (access_level IN ('not_protected', 'ref_protected')),
  maximum_timeout INTEGER,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  creator_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  -- The runner `collab serve` starts as its child process (one at most); its token is made anew at every start.
  embedded INTEGER NOT NULL DEFAULT 0,
  -- Takes only jobs of pipelines started by administrators: a runner that cannot isolate jobs (no sandbox here).
  admin_pipelines_only INTEGER NOT NULL DEFAULT 0,
  -- What the runner said of itself in its last request (gitlab-runner's `info`).
  name TEXT,
  version TEXT,
  revision TEXT,
  platform TEXT,
  architecture TEXT,
  executor TEXT,
  ip_address TEXT,
  contacted_at TEXT,
  created_at TEXT NOT NULL
);

-- The projects a project runner serves (the first is the one it was created in).
CREATE TABLE ci_runner_projects (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  runner_id INTEGER NOT NULL REFERENCES ci_runners(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  UNIQUE (runner_id, project_id)
);
CREATE INDEX ci_runner_projects_project ON ci_runner_projects(project_id);
CREATE UNIQUE INDEX ci_runners_embedded ON ci_runners(embedded) WHERE embedded = 1;

-- Registration tokens (deprecated by GitLab 15.6, still what `gitlab-runner register --registration-token` sends):
-- one for the instance (project_id NULL) and one per project, created on first reset.
CREATE TABLE ci_registration_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER UNIQUE REFERENCES projects(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX ci_registration_tokens_instance ON ci_registration_tokens((project_id IS NULL)) WHERE project_id IS NULL;
