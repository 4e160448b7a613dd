-- A bulk push event (more refs of one type and action in one push than push_event_activities_limit) names no ref:
-- GitLab's push_event_payloads.ref is null there, with ref_count saying how many. Rebuilt to let `ref` be null;
-- nothing references this table, so dropping it cascades nowhere.
CREATE TABLE push_event_payloads_new (
  event_id INTEGER PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
  commit_count INTEGER NOT NULL,
  action TEXT NOT NULL,
  ref_type TEXT NOT NULL,
  commit_from TEXT,
  commit_to TEXT,
  ref TEXT,
  commit_title TEXT,
  ref_count INTEGER
);
INSERT INTO push_event_payloads_new SELECT event_id, commit_count, action, ref_type, commit_from, commit_to, ref, commit_title, ref_count
  FROM push_event_payloads;
DROP TABLE push_event_payloads;
ALTER TABLE push_event_payloads_new RENAME TO push_event_payloads;
