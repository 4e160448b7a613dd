-- CI: pipelines, their jobs (GitLab's builds), pipeline and project variables, and job artifacts.
CREATE TABLE pipelines (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  -- From internal_ids, usage 'pipelines'.
  iid INTEGER NOT NULL,
  sha TEXT NOT NULL,
  before_sha TEXT,
  ref TEXT NOT NULL,
  tag INTEGER NOT NULL DEFAULT 0,
  -- push, web, api, trigger, schedule, merge_request_event, external …
  source TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'created',
  -- The message of a broken .gitlab-ci.yml; such a pipeline is failed with no jobs.
  yaml_errors TEXT,
  -- The pipeline's stages in order (JSON array), from the config.
  stages TEXT NOT NULL DEFAULT '[]',
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  merge_request_id INTEGER REFERENCES merge_requests(id) ON DELETE SET NULL,
  coverage TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  committed_at TEXT,
  duration INTEGER,
  queued_duration INTEGER
);
CREATE UNIQUE INDEX pipelines_project_iid ON pipelines(project_id, iid);
CREATE INDEX pipelines_project_id ON pipelines(project_id, id);
CREATE INDEX pipelines_project_sha ON pipelines(project_id, sha, id);
CREATE INDEX pipelines_project_ref_status ON pipelines(project_id, ref, status, id);
CREATE INDEX pipelines_merge_request ON pipelines(merge_request_id, id);

CREATE TABLE pipeline_variables (
  pipeline_id INTEGER NOT NULL REFERENCES pipelines(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  variable_type TEXT NOT NULL DEFAULT 'env_var',
  PRIMARY KEY (pipeline_id, key)
) WITHOUT ROWID;

CREATE TABLE ci_jobs (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  pipeline_id INTEGER NOT NULL REFERENCES pipelines(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  stage TEXT NOT NULL,
  stage_idx INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'created',
  -- The job's `when` (on_success, on_failure, always, manual, delayed).
  when_ TEXT NOT NULL DEFAULT 'on_success',
  allow_failure INTEGER NOT NULL DEFAULT 0,
  -- The planned job (JobSpec of ci/plan-types.ts) as JSON: script, variables, needs, artifacts, retry, timeout …
  spec TEXT NOT NULL,
  ref TEXT NOT NULL,
  tag INTEGER NOT NULL DEFAULT 0,
  sha TEXT NOT NULL,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  -- SHA-256 of the job token; set while the job runs, cleared when it ends (the token dies with it).
  token_hash TEXT,
  -- A retried job is kept (GitLab shows it with include_retried) and a new row takes its place.
  retried INTEGER NOT NULL DEFAULT 0,
  -- How many automatic retries (the `retry` keyword) led to this row.
  retry_count INTEGER NOT NULL DEFAULT 0,
  failure_reason TEXT,
  exit_code INTEGER,
  coverage REAL,
  runner_id TEXT,
  created_at TEXT NOT NULL,
  queued_at TEXT,
  started_at TEXT,
  finished_at TEXT,
  scheduled_at TEXT,
  erased_at TEXT,
  erased_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  trace_size INTEGER NOT NULL DEFAULT 0,
  artifacts_file TEXT,
  artifacts_size INTEGER,
  artifacts_metadata_size INTEGER,
  artifacts_expire_at TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX ci_jobs_pipeline ON ci_jobs(pipeline_id, stage_idx, id);
CREATE INDEX ci_jobs_project ON ci_jobs(project_id, id);
CREATE INDEX ci_jobs_project_status ON ci_jobs(project_id, status, id);
CREATE INDEX ci_jobs_queue ON ci_jobs(status, id);
CREATE UNIQUE INDEX ci_jobs_token ON ci_jobs(token_hash) WHERE token_hash IS NOT NULL;
CREATE INDEX ci_jobs_artifacts_expiry ON ci_jobs(artifacts_expire_at) WHERE artifacts_file IS NOT NULL;

-- Project CI/CD variables (/projects/:id/variables).
CREATE TABLE ci_variables (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  variable_type TEXT NOT NULL DEFAULT 'env_var',
  protected INTEGER NOT NULL DEFAULT 0,
  masked INTEGER NOT NULL DEFAULT 0,
  raw INTEGER NOT NULL DEFAULT 0,
  environment_scope TEXT NOT NULL DEFAULT '*',
  description TEXT
);
CREATE UNIQUE INDEX ci_variables_project_key ON ci_variables(project_id, key, environment_scope);
