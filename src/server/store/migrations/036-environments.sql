-- Environments and their deployments (GitLab's environments and deployments tables). A deployment made by a CI job
-- (deployable_id) follows the job's status: the trigger below keeps the two in the same write, whatever moved the job.
CREATE TABLE environments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  external_url TEXT,
  -- available, stopping (its on_stop job runs) or stopped.
  state TEXT NOT NULL DEFAULT 'available',
  tier TEXT NOT NULL,
  auto_stop_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name),
  UNIQUE (project_id, slug)
);

CREATE TABLE deployments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  environment_id INTEGER NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
  iid INTEGER NOT NULL,
  ref TEXT NOT NULL,
  tag INTEGER NOT NULL DEFAULT 0,
  sha TEXT NOT NULL,
  -- created, running, success, failed, canceled, skipped or blocked.
  status TEXT NOT NULL,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  deployable_id INTEGER REFERENCES ci_jobs(id) ON DELETE SET NULL,
  -- The name of the job that stops the environment (environment:on_stop of the deploying job).
  on_stop TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  finished_at TEXT,
  UNIQUE (project_id, iid)
);
CREATE INDEX deployments_environment ON deployments(environment_id, id);
CREATE INDEX deployments_deployable ON deployments(deployable_id);

-- The merge requests a successful deployment shipped (GitLab's deployment_merge_requests).
CREATE TABLE deployment_merge_requests (
  deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  PRIMARY KEY (deployment_id, merge_request_id)
) WITHOUT ROWID;

-- Deployment#sync_status_with(job): a manual job's deployment is blocked; pending, scheduled and other job states
-- that are no deployment status leave it as it is.
CREATE TRIGGER ci_jobs_deployment_status AFTER UPDATE OF status ON ci_jobs
  WHEN NEW.status IS NOT OLD.status AND NEW.status IN ('created', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual')
BEGIN
  UPDATE deployments SET
    status = CASE NEW.status WHEN 'manual' THEN 'blocked' ELSE NEW.status END,
    updated_at = NEW.updated_at,
    finished_at = CASE WHEN NEW.status IN ('success', 'failed', 'canceled', 'skipped') THEN COALESCE(NEW.finished_at, NEW.updated_at) ELSE NULL END
  WHERE deployable_id = NEW.id AND status IS NOT (CASE NEW.status WHEN 'manual' THEN 'blocked' ELSE NEW.status END);
END;
