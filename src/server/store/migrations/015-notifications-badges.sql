-- Notification settings (global, per group, per project) and badges (of a project or a group).
CREATE TABLE notification_settings (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source_kind TEXT NOT NULL CHECK (source_kind IN ('global', 'group', 'project')),
  -- 0 for the global setting; a namespace or project id otherwise (removed with it by the triggers below).
  source_id INTEGER NOT NULL,
  level TEXT NOT NULL,
  events TEXT NOT NULL DEFAULT '{}',
  notification_email TEXT,
  PRIMARY KEY (user_id, source_kind, source_id)
);

CREATE TABLE badges (
  id INTEGER PRIMARY KEY,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  name TEXT,
  link_url TEXT NOT NULL,
  image_url TEXT NOT NULL,
  created_at TEXT NOT NULL,
  CHECK ((project_id IS NULL) != (group_id IS NULL))
);
CREATE INDEX badges_project ON badges(project_id, id);
CREATE INDEX badges_group ON badges(group_id, id);

CREATE TRIGGER notification_settings_project_gone AFTER DELETE ON projects BEGIN
  DELETE FROM notification_settings WHERE source_kind = 'project' AND source_id = old.id;
END;
CREATE TRIGGER notification_settings_group_gone AFTER DELETE ON namespaces BEGIN
  DELETE FROM notification_settings WHERE source_kind = 'group' AND source_id = old.id;
END;
