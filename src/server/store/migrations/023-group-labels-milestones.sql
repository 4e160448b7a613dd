-- foreign-keys: off
-- Group labels and group milestones live in the same tables as project ones, because GitLab's ids are global: an issue
-- or merge request carries its project's labels and its ancestor groups' labels through the same noteable_labels rows,
-- and milestone_id points at a project or a group milestone alike. Each row belongs to exactly one project or one group.
--
-- Rebuilt as in 007: new tables under temporary names, rows copied with their ids (noteable_labels, label
-- subscriptions, issues.milestone_id and merge_requests.milestone_id keep pointing at them), old tables dropped with
-- foreign keys off (so no cascade runs), new ones renamed into place and their indexes recreated.
CREATE TABLE labels_new (
  id INTEGER PRIMARY KEY,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  color TEXT NOT NULL,
  description TEXT,
  priority INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((project_id IS NULL) <> (group_id IS NULL))
);
INSERT INTO labels_new (id, project_id, group_id, name, color, description, priority, created_at, updated_at)
  SELECT id, project_id, NULL, name, color, description, priority, created_at, updated_at FROM labels;

CREATE TABLE milestones_new (
  id INTEGER PRIMARY KEY,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  iid INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL DEFAULT 'active',
  due_date TEXT,
  start_date TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  closed_at TEXT,
  CHECK ((project_id IS NULL) <> (group_id IS NULL))
);
INSERT INTO milestones_new (id, project_id, group_id, iid, title, description, state, due_date, start_date, created_at, updated_at, closed_at)
  SELECT id, project_id, NULL, iid, title, description, state, due_date, start_date, created_at, updated_at, closed_at FROM milestones;

DROP TABLE labels;
DROP TABLE milestones;
ALTER TABLE labels_new RENAME TO labels;
ALTER TABLE milestones_new RENAME TO milestones;

CREATE UNIQUE INDEX labels_project_name ON labels(project_id, name);
CREATE UNIQUE INDEX labels_group_name ON labels(group_id, name);
CREATE INDEX labels_name ON labels(name);
CREATE UNIQUE INDEX milestones_project_iid ON milestones(project_id, iid);
CREATE UNIQUE INDEX milestones_project_title ON milestones(project_id, title);
CREATE UNIQUE INDEX milestones_group_iid ON milestones(group_id, iid);
CREATE UNIQUE INDEX milestones_group_title ON milestones(group_id, title);
CREATE INDEX milestones_title ON milestones(title);

-- Group milestones take their iids from a per-group counter, as project ones do from internal_ids.
CREATE TABLE group_internal_ids (
  group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
  usage TEXT NOT NULL,
  last_value INTEGER NOT NULL,
  PRIMARY KEY (group_id, usage)
) WITHOUT ROWID;
