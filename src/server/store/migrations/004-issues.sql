-- Issues with their labels, milestones, assignees, notes, award emoji, subscriptions, todos and per-project iid counters.
CREATE TABLE internal_ids (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  usage TEXT NOT NULL,
  last_value INTEGER NOT NULL,
  PRIMARY KEY (project_id, usage)
);

CREATE TABLE labels (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  color TEXT NOT NULL,
  description TEXT,
  priority INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX labels_project_name ON labels(project_id, name);
CREATE INDEX labels_name ON labels(name);

CREATE TABLE milestones (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  iid INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL DEFAULT 'active',
  due_date TEXT,
  start_date TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  closed_at TEXT
);
CREATE UNIQUE INDEX milestones_project_iid ON milestones(project_id, iid);
CREATE UNIQUE INDEX milestones_project_title ON milestones(project_id, title);
CREATE INDEX milestones_title ON milestones(title);

CREATE TABLE issues (
  id INTEGER PRIMARY KEY,
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
  moved_to_id INTEGER REFERENCES issues(id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX issues_project_iid ON issues(project_id, iid);
CREATE INDEX issues_project_created ON issues(project_id, created_at, id);
CREATE INDEX issues_project_state_created ON issues(project_id, state, created_at, id);
CREATE INDEX issues_project_updated ON issues(project_id, updated_at, id);
CREATE INDEX issues_author ON issues(author_id);
CREATE INDEX issues_milestone ON issues(milestone_id);
CREATE INDEX issues_created ON issues(created_at, id);

CREATE TABLE issue_labels (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  PRIMARY KEY (issue_id, label_id)
) WITHOUT ROWID;
CREATE INDEX issue_labels_label ON issue_labels(label_id, issue_id);

CREATE TABLE issue_assignees (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (issue_id, user_id)
) WITHOUT ROWID;
CREATE INDEX issue_assignees_user ON issue_assignees(user_id, issue_id);

CREATE TABLE notes (
  id INTEGER PRIMARY KEY,
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id),
  body TEXT NOT NULL,
  system INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX notes_issue ON notes(issue_id, created_at, id);

CREATE TABLE award_emoji (
  id INTEGER PRIMARY KEY,
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX award_emoji_unique ON award_emoji(issue_id, user_id, name);
CREATE INDEX award_emoji_user ON award_emoji(user_id, name);

-- An explicit subscribe (1) or unsubscribe (0); without a row, participants are subscribed.
CREATE TABLE issue_subscriptions (
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subscribed INTEGER NOT NULL,
  PRIMARY KEY (issue_id, user_id)
) WITHOUT ROWID;

CREATE TABLE todos (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  action_name TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX todos_user ON todos(user_id, state, id);
CREATE INDEX todos_issue ON todos(issue_id);

CREATE TABLE user_agent_details (
  issue_id INTEGER PRIMARY KEY REFERENCES issues(id) ON DELETE CASCADE,
  user_agent TEXT NOT NULL,
  ip_address TEXT NOT NULL,
  submitted INTEGER NOT NULL DEFAULT 0
);
