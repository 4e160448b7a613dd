-- Users, tokens, sessions, namespaces (user and group), members, projects and stars.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  username TEXT NOT NULL UNIQUE COLLATE NOCASE,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT NOT NULL,
  password_hash TEXT,
  state TEXT NOT NULL DEFAULT 'active',
  is_admin INTEGER NOT NULL DEFAULT 0,
  bio TEXT NOT NULL DEFAULT '',
  location TEXT NOT NULL DEFAULT '',
  skype TEXT NOT NULL DEFAULT '',
  linkedin TEXT NOT NULL DEFAULT '',
  twitter TEXT NOT NULL DEFAULT '',
  website_url TEXT NOT NULL DEFAULT '',
  organization TEXT NOT NULL DEFAULT '',
  job_title TEXT NOT NULL DEFAULT '',
  note TEXT,
  projects_limit INTEGER NOT NULL DEFAULT 100000,
  can_create_group INTEGER NOT NULL DEFAULT 1,
  external INTEGER NOT NULL DEFAULT 0,
  private_profile INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  last_sign_in_at TEXT,
  last_activity_on TEXT
);

CREATE TABLE namespaces (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('user', 'group')),
  name TEXT NOT NULL,
  path TEXT NOT NULL,
  full_path TEXT NOT NULL UNIQUE COLLATE NOCASE,
  full_name TEXT NOT NULL,
  parent_id INTEGER REFERENCES namespaces(id),
  owner_id INTEGER REFERENCES users(id),
  description TEXT NOT NULL DEFAULT '',
  visibility TEXT NOT NULL DEFAULT 'private',
  request_access_enabled INTEGER NOT NULL DEFAULT 1,
  lfs_enabled INTEGER NOT NULL DEFAULT 1,
  default_branch TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX namespaces_user ON namespaces(owner_id) WHERE kind = 'user';
CREATE INDEX namespaces_parent ON namespaces(parent_id);

CREATE TABLE tokens (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('personal', 'impersonation', 'oauth')),
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  refresh_hash TEXT UNIQUE,
  scopes TEXT NOT NULL,
  revoked INTEGER NOT NULL DEFAULT 0,
  expires_at TEXT,
  created_at TEXT NOT NULL,
  last_used_at TEXT
);
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);

CREATE TABLE group_members (
  namespace_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  access_level INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  PRIMARY KEY (namespace_id, user_id)
);
CREATE INDEX group_members_user ON group_members(user_id);

CREATE TABLE projects (
  id INTEGER PRIMARY KEY,
  namespace_id INTEGER NOT NULL REFERENCES namespaces(id),
  name TEXT NOT NULL,
  path TEXT NOT NULL,
  description TEXT,
  default_branch TEXT,
  visibility TEXT NOT NULL DEFAULT 'private',
  creator_id INTEGER NOT NULL REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_activity_at TEXT NOT NULL,
  archived INTEGER NOT NULL DEFAULT 0,
  issues_enabled INTEGER NOT NULL DEFAULT 1,
  merge_requests_enabled INTEGER NOT NULL DEFAULT 1,
  jobs_enabled INTEGER NOT NULL DEFAULT 1,
  wiki_enabled INTEGER NOT NULL DEFAULT 1,
  snippets_enabled INTEGER NOT NULL DEFAULT 1,
  container_registry_enabled INTEGER NOT NULL DEFAULT 1,
  resolve_outdated_diff_discussions INTEGER NOT NULL DEFAULT 0,
  shared_runners_enabled INTEGER NOT NULL DEFAULT 1,
  lfs_enabled INTEGER NOT NULL DEFAULT 1,
  public_jobs INTEGER NOT NULL DEFAULT 1,
  only_allow_merge_if_pipeline_succeeds INTEGER NOT NULL DEFAULT 0,
  only_allow_merge_if_all_discussions_are_resolved INTEGER NOT NULL DEFAULT 0,
  request_access_enabled INTEGER NOT NULL DEFAULT 1,
  printing_merge_request_link_enabled INTEGER NOT NULL DEFAULT 1,
  merge_method TEXT NOT NULL DEFAULT 'merge',
  ci_config_path TEXT,
  import_url TEXT,
  import_status TEXT NOT NULL DEFAULT 'none',
  import_error TEXT,
  forked_from_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,
  tag_list TEXT NOT NULL DEFAULT '[]',
  star_count INTEGER NOT NULL DEFAULT 0,
  empty_repo INTEGER NOT NULL DEFAULT 1,
  runners_token TEXT NOT NULL
);
CREATE UNIQUE INDEX projects_path ON projects(namespace_id, path COLLATE NOCASE);
CREATE UNIQUE INDEX projects_name ON projects(namespace_id, name COLLATE NOCASE);
CREATE INDEX projects_forked_from ON projects(forked_from_id);

CREATE TABLE project_members (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  access_level INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_members_user ON project_members(user_id);

CREATE TABLE stars (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (user_id, project_id)
);
CREATE INDEX stars_project ON stars(project_id);

CREATE TABLE custom_attributes (
  subject TEXT NOT NULL CHECK (subject IN ('user', 'group', 'project')),
  subject_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (subject, subject_id, key)
);
