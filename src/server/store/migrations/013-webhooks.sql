-- Project hooks and system hooks (one table, as GitLab's web_hooks), and the log of every delivery attempt.
CREATE TABLE web_hooks (
  id INTEGER PRIMARY KEY,
  type TEXT NOT NULL CHECK (type IN ('ProjectHook', 'SystemHook')),
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  name TEXT,
  description TEXT,
  token TEXT,
  url_variables TEXT NOT NULL DEFAULT '{}',
  custom_headers TEXT NOT NULL DEFAULT '{}',
  custom_webhook_template TEXT,
  push_events_branch_filter TEXT,
  branch_filter_strategy TEXT NOT NULL DEFAULT 'wildcard',
  events TEXT NOT NULL DEFAULT '{}',
  enable_ssl_verification INTEGER NOT NULL DEFAULT 1,
  recent_failures INTEGER NOT NULL DEFAULT 0,
  backoff_count INTEGER NOT NULL DEFAULT 0,
  disabled_until TEXT,
  permanently_disabled INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX web_hooks_project ON web_hooks(project_id, id);

CREATE TABLE web_hook_logs (
  id INTEGER PRIMARY KEY,
  web_hook_id INTEGER NOT NULL REFERENCES web_hooks(id) ON DELETE CASCADE,
  trigger TEXT NOT NULL,
  url TEXT NOT NULL,
  request_headers TEXT NOT NULL,
  request_data TEXT NOT NULL,
  response_headers TEXT NOT NULL,
  response_body TEXT NOT NULL,
  response_status TEXT NOT NULL,
  execution_duration REAL NOT NULL,
  internal_error_message TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX web_hook_logs_hook ON web_hook_logs(web_hook_id, id);
