-- Broadcast messages: instance-wide banners and notifications that administrators schedule (GitLab's BroadcastMessage).
CREATE TABLE broadcast_messages (
  id INTEGER PRIMARY KEY,
  message TEXT NOT NULL,
  starts_at TEXT NOT NULL,
  ends_at TEXT NOT NULL,
  color TEXT,
  font TEXT,
  target_access_levels TEXT NOT NULL DEFAULT '[]',
  target_path TEXT,
  broadcast_type TEXT NOT NULL DEFAULT 'banner',
  dismissable INTEGER NOT NULL DEFAULT 0,
  theme TEXT NOT NULL DEFAULT 'indigo',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX broadcast_messages_window ON broadcast_messages (ends_at, starts_at);
