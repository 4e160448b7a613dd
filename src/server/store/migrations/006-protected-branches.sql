-- Protected branch rules (GitLab's protected_branches with one push, merge and unprotect access level each).
-- `name` is an exact branch name or a pattern with `*`; levels are 0 (no one), 30, 40 or 60.
CREATE TABLE protected_branches (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  push_access_level INTEGER NOT NULL,
  merge_access_level INTEGER NOT NULL,
  unprotect_access_level INTEGER,
  allow_force_push INTEGER NOT NULL DEFAULT 0,
  code_owner_approval_required INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name)
);
