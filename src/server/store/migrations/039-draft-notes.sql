-- Draft notes (GitLab's draft_notes): a reviewer's pending comments on a merge request, seen only by their author until
-- published, when each becomes a note (a new thread, a diff thread with its position, or a reply in discussion_id).
CREATE TABLE draft_notes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  noteable_id INTEGER NOT NULL REFERENCES noteables(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  note TEXT NOT NULL,
  discussion_id TEXT,
  resolve_discussion INTEGER NOT NULL DEFAULT 0,
  commit_id TEXT,
  position TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX draft_notes_author ON draft_notes(noteable_id, author_id, id);
CREATE INDEX draft_notes_user ON draft_notes(author_id);
