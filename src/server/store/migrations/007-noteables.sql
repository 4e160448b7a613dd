-- One discussion layer for every noteable kind (issues now, merge requests and snippets next).
--
-- Design: a `noteables` parent table (id, kind, project_id) whose id each kind's row shares (issues.id REFERENCES
-- noteables(id) ON DELETE CASCADE). Notes, award emoji, subscriptions, todos, labels, assignees and user agent details
-- are child tables keyed by noteable_id with ON DELETE CASCADE. Deleting a noteable row deletes the kind's row and
-- every child row through ordinary foreign-key actions, so the store's write tracking (EXPLAIN sees FK sub-programs)
-- stamps every table a deletion touches, unchanged. A new kind adds a `kind` value and its own table; the child tables
-- stay as they are. (Polymorphic (type, id) columns, GitLab's choice, would give up foreign keys and cascades.)
--
-- Migration: foreign keys are on and cannot be turned off inside the migration's transaction, and DROP TABLE then runs
-- an implicit DELETE with its FK actions. So the new tables are built under temporary names (issues_new references
-- itself by that name, which RENAME rewrites), filled, the old children dropped before the old issues table, and the
-- new ones renamed into place. Ids are kept, so every existing note, award and todo keeps its id.
CREATE TABLE noteables (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE
);
CREATE INDEX noteables_project ON noteables(project_id, kind);
INSERT INTO noteables (id, kind, project_id) SELECT id, 'Issue', project_id FROM issues;

CREATE TABLE issues_new (
  id INTEGER PRIMARY KEY REFERENCES noteables(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  iid INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL DEFAULT 'opened',
  author_id INTEGER NOT NULL REFERENCES users(id),
  milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
  confidential INTEGER NOT NULL DEFAULT 0,
  discussion_locked INTEGER NOT NULL DEFAULT 0,
  due_date TEXT,
  time_estimate INTEGER NOT NULL DEFAULT 0,
  total_time_spent INTEGER NOT NULL DEFAULT 0,
  user_notes_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  closed_at TEXT,
  closed_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  moved_to_id INTEGER REFERENCES issues_new(id) ON DELETE SET NULL
);
INSERT INTO issues_new SELECT id, project_id, iid, title, description, state, author_id, milestone_id, confidential,
  discussion_locked, due_date, time_estimate, total_time_spent, user_notes_count, created_at, updated_at, closed_at,
  closed_by_id, moved_to_id FROM issues;

CREATE TABLE noteable_labels (
  noteable_id INTEGER NOT NULL REFERENCES noteables(id) ON DELETE CASCADE,
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  PRIMARY KEY (noteable_id, label_id)
) WITHOUT ROWID;
INSERT INTO noteable_labels SELECT issue_id, label_id FROM issue_labels;

CREATE TABLE noteable_assignees (
  noteable_id INTEGER NOT NULL REFERENCES noteables(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (noteable_id, user_id)
) WITHOUT ROWID;
INSERT INTO noteable_assignees SELECT issue_id, user_id, position FROM issue_assignees;

CREATE TABLE notes_new (
  id INTEGER PRIMARY KEY,
  noteable_id INTEGER NOT NULL REFERENCES noteables(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id),
  body TEXT NOT NULL,
  system INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO notes_new SELECT id, issue_id, author_id, body, system, created_at, updated_at FROM notes;

CREATE TABLE award_emoji_new (
  id INTEGER PRIMARY KEY,
  noteable_id INTEGER NOT NULL REFERENCES noteables(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO award_emoji_new SELECT id, issue_id, user_id, name, created_at, updated_at FROM award_emoji;

-- An explicit subscribe (1) or unsubscribe (0); without a row, participants are subscribed.
CREATE TABLE subscriptions (
  noteable_id INTEGER NOT NULL REFERENCES noteables(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subscribed INTEGER NOT NULL,
  PRIMARY KEY (noteable_id, user_id)
) WITHOUT ROWID;
INSERT INTO subscriptions SELECT issue_id, user_id, subscribed FROM issue_subscriptions;

CREATE TABLE todos_new (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  noteable_id INTEGER NOT NULL REFERENCES noteables(id) ON DELETE CASCADE,
  action_name TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO todos_new SELECT id, user_id, author_id, project_id, issue_id, action_name, state, body, created_at, updated_at FROM todos;

CREATE TABLE user_agent_details_new (
  noteable_id INTEGER PRIMARY KEY REFERENCES noteables(id) ON DELETE CASCADE,
  user_agent TEXT NOT NULL,
  ip_address TEXT NOT NULL,
  submitted INTEGER NOT NULL DEFAULT 0
);
INSERT INTO user_agent_details_new SELECT issue_id, user_agent, ip_address, submitted FROM user_agent_details;

DROP TABLE issue_labels;
DROP TABLE issue_assignees;
DROP TABLE notes;
DROP TABLE award_emoji;
DROP TABLE issue_subscriptions;
DROP TABLE todos;
DROP TABLE user_agent_details;
DROP TABLE issues;

ALTER TABLE issues_new RENAME TO issues;
ALTER TABLE notes_new RENAME TO notes;
ALTER TABLE award_emoji_new RENAME TO award_emoji;
ALTER TABLE todos_new RENAME TO todos;
ALTER TABLE user_agent_details_new RENAME TO user_agent_details;

CREATE UNIQUE INDEX issues_project_iid ON issues(project_id, iid);
CREATE INDEX issues_project_created ON issues(project_id, created_at, id);
CREATE INDEX issues_project_state_created ON issues(project_id, state, created_at, id);
CREATE INDEX issues_project_updated ON issues(project_id, updated_at, id);
CREATE INDEX issues_author ON issues(author_id);
CREATE INDEX issues_milestone ON issues(milestone_id);
CREATE INDEX issues_created ON issues(created_at, id);
CREATE INDEX noteable_labels_label ON noteable_labels(label_id, noteable_id);
CREATE INDEX noteable_assignees_user ON noteable_assignees(user_id, noteable_id);
CREATE INDEX notes_noteable ON notes(noteable_id, created_at, id);
CREATE UNIQUE INDEX award_emoji_unique ON award_emoji(noteable_id, user_id, name);
CREATE INDEX award_emoji_user ON award_emoji(user_id, name);
CREATE INDEX todos_user ON todos(user_id, state, id);
CREATE INDEX todos_noteable ON todos(noteable_id);
