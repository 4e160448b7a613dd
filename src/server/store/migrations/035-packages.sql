-- The package registry (GitLab's packages_packages, packages_package_files and their build infos) and the plan limits
-- that cap it. Files live on disk at packages/<project id>/<package id>/<package file id>, named by ids only.
CREATE TABLE packages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  version TEXT,
  package_type TEXT NOT NULL DEFAULT 'generic',
  -- default, hidden, processing, error, pending_destruction, deprecated
  status TEXT NOT NULL DEFAULT 'default',
  creator_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_downloaded_at TEXT
);
CREATE INDEX packages_project_name ON packages(project_id, package_type, name, version);
CREATE INDEX packages_project_created ON packages(project_id, created_at, id);

CREATE TABLE package_files (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  package_id INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
  file_name TEXT NOT NULL,
  size INTEGER NOT NULL,
  file_md5 TEXT,
  file_sha1 TEXT,
  file_sha256 TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX package_files_package_name ON package_files(package_id, file_name, id);

-- The pipelines whose jobs published a package or one of its files (a deleted pipeline leaves a null).
CREATE TABLE package_build_infos (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  package_id INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
  pipeline_id INTEGER REFERENCES pipelines(id) ON DELETE SET NULL
);
CREATE INDEX package_build_infos_package ON package_build_infos(package_id, pipeline_id);

CREATE TABLE package_file_build_infos (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  package_file_id INTEGER NOT NULL REFERENCES package_files(id) ON DELETE CASCADE,
  pipeline_id INTEGER REFERENCES pipelines(id) ON DELETE SET NULL
);
CREATE INDEX package_file_build_infos_file ON package_file_build_infos(package_file_id, pipeline_id);

-- GitLab's plan_limits of the one plan a self-managed instance has ('default'); sizes in bytes.
CREATE TABLE plan_limits (
  plan_name TEXT PRIMARY KEY,
  generic_packages_max_file_size INTEGER NOT NULL DEFAULT 5368709120
);
INSERT INTO plan_limits (plan_name) VALUES ('default');
