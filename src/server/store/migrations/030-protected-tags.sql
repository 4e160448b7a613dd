-- Protected tag rules (GitLab's protected_tags with one create access level): `name` is an exact tag name or a
-- pattern with `*`; create_access_level is 0 (no one), 30, 40 or 60.
CREATE TABLE protected_tags (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  create_access_level INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);
