-- The events feed (GET /events, users' and projects' events): one row per thing a user did in a project. Targets are
-- referenced by kind and id, as GitLab's polymorphic target, and read live, so a renamed issue shows its new title.
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- GitLab's action enum by name: created, updated, closed, reopened, pushed, commented, merged, joined, left, expired, destroyed, approved.
  action TEXT NOT NULL,
  -- GitLab's class name: Issue, MergeRequest, Note (DiffNote, DiscussionNote …), WikiPage::Meta, or NULL (project created, pushes, joined, left).
  target_type TEXT,
  target_id INTEGER,
  -- The target's title when it cannot be read live later: a wiki page (which may be deleted), a commented commit.
  target_title TEXT,
  -- A wiki page's slug and format when the event happened.
  wiki_slug TEXT,
  wiki_format TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX events_author ON events(author_id, id);
CREATE INDEX events_author_project ON events(author_id, project_id);
CREATE INDEX events_project ON events(project_id, id);
CREATE INDEX events_target ON events(target_type, target_id);

-- GitLab's push_event_payloads: what a push event moved.
CREATE TABLE push_event_payloads (
  event_id INTEGER PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
  commit_count INTEGER NOT NULL,
  action TEXT NOT NULL,
  ref_type TEXT NOT NULL,
  commit_from TEXT,
  commit_to TEXT,
  ref TEXT NOT NULL,
  commit_title TEXT,
  ref_count INTEGER
);
