-- Resource label, milestone and state events of issues and merge requests, and issue links (related issues).
--
-- Events hang off the noteable (issues and merge requests share its ids) and go with it. The label or milestone an
-- event names may be deleted later: the event stays with a null one, as GitLab keeps it. The acting user is a
-- contribution (no ON DELETE action), so deleting a user moves their events to the ghost user or removes them.
CREATE TABLE resource_label_events (
  id INTEGER PRIMARY KEY,
  noteable_id INTEGER NOT NULL REFERENCES noteables(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  label_id INTEGER REFERENCES labels(id) ON DELETE SET NULL,
  action TEXT NOT NULL CHECK (action IN ('add', 'remove')),
  created_at TEXT NOT NULL
);
CREATE INDEX resource_label_events_noteable ON resource_label_events(noteable_id, id);
CREATE INDEX resource_label_events_label ON resource_label_events(label_id);

-- `state` is the issuable's state when the milestone changed, as GitLab records it.
CREATE TABLE resource_milestone_events (
  id INTEGER PRIMARY KEY,
  noteable_id INTEGER NOT NULL REFERENCES noteables(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
  action TEXT NOT NULL CHECK (action IN ('add', 'remove')),
  state TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX resource_milestone_events_noteable ON resource_milestone_events(noteable_id, id);
CREATE INDEX resource_milestone_events_milestone ON resource_milestone_events(milestone_id);

-- An issue closed by a merge names it (source_merge_request_id); one closed by a pushed commit names the commit.
CREATE TABLE resource_state_events (
  id INTEGER PRIMARY KEY,
  noteable_id INTEGER NOT NULL REFERENCES noteables(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  state TEXT NOT NULL CHECK (state IN ('opened', 'closed', 'reopened', 'merged', 'locked')),
  source_commit TEXT,
  source_merge_request_id INTEGER REFERENCES merge_requests(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX resource_state_events_noteable ON resource_state_events(noteable_id, id);
CREATE INDEX resource_state_events_merge_request ON resource_state_events(source_merge_request_id);

-- One row per pair, stored as GitLab stores it: `is_blocked_by` is a `blocks` link with source and target swapped.
CREATE TABLE issue_links (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  target_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  link_type TEXT NOT NULL DEFAULT 'relates_to' CHECK (link_type IN ('relates_to', 'blocks')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK (source_id <> target_id)
);
CREATE UNIQUE INDEX issue_links_pair ON issue_links(source_id, target_id);
CREATE INDEX issue_links_target ON issue_links(target_id);
