-- Group and instance CI/CD variables (/groups/:id/variables, /admin/ci/variables) and pipeline trigger tokens
-- (/projects/:id/triggers), with the same columns and rules as the project variables of 011-ci.sql.
CREATE TABLE ci_group_variables (
  id INTEGER PRIMARY KEY,
  group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  variable_type TEXT NOT NULL DEFAULT 'env_var',
  protected INTEGER NOT NULL DEFAULT 0,
  masked INTEGER NOT NULL DEFAULT 0,
  raw INTEGER NOT NULL DEFAULT 0,
  environment_scope TEXT NOT NULL DEFAULT '*',
  description TEXT
);
CREATE UNIQUE INDEX ci_group_variables_group_key ON ci_group_variables(group_id, key, environment_scope);

-- Instance variables have no environment scope: one per key.
CREATE TABLE ci_instance_variables (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  value TEXT NOT NULL,
  variable_type TEXT NOT NULL DEFAULT 'env_var',
  protected INTEGER NOT NULL DEFAULT 0,
  masked INTEGER NOT NULL DEFAULT 0,
  raw INTEGER NOT NULL DEFAULT 0,
  description TEXT
);

-- The token is found by its SHA-256 hash; it is also kept as is because GitLab's API shows it in full to its owner
-- on every read (scripts look a trigger up by description and use its token), as CI variable values are kept.
CREATE TABLE ci_triggers (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  owner_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  description TEXT NOT NULL,
  token TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  expires_at TEXT,
  -- When it last created a pipeline.
  last_used TEXT
);
CREATE INDEX ci_triggers_project ON ci_triggers(project_id, id);

-- The trigger that made a pipeline, for its jobs' CI_TRIGGER_SHORT_TOKEN (kept when the trigger is deleted).
CREATE TABLE ci_trigger_pipelines (
  pipeline_id INTEGER PRIMARY KEY REFERENCES pipelines(id) ON DELETE CASCADE,
  trigger_id INTEGER REFERENCES ci_triggers(id) ON DELETE SET NULL,
  short_token TEXT NOT NULL
);
