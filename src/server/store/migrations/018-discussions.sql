-- Discussions: every note belongs to a thread (GitLab's 40-hex discussion_id), threads on merge requests resolve, and
-- commits become a noteable kind, so commit comments live in `notes` with the other kinds' (DESIGN.md §Discussions).
-- `type` is GitLab's note class: NULL (an individual note), DiscussionNote, DiffNote (with a `position`, JSON), or
-- LegacyDiffNote (a commit comment placed on a line, `position` holding its path, line and line_type).
ALTER TABLE notes ADD COLUMN discussion_id TEXT;
ALTER TABLE notes ADD COLUMN type TEXT;
ALTER TABLE notes ADD COLUMN position TEXT;
ALTER TABLE notes ADD COLUMN resolved_at TEXT;
ALTER TABLE notes ADD COLUMN resolved_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL;
UPDATE notes SET discussion_id = lower(hex(randomblob(20)));
CREATE INDEX notes_discussion ON notes(noteable_id, discussion_id);

-- A commit's row shares its noteable's id like the other kinds; it exists once the commit has a note.
CREATE TABLE commit_noteables (
  id INTEGER PRIMARY KEY REFERENCES noteables(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  sha TEXT NOT NULL,
  discussion_locked INTEGER NOT NULL DEFAULT 0,
  user_notes_count INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX commit_noteables_sha ON commit_noteables(project_id, sha);

-- Existing commit comments move into notes: one noteable per commented commit, ids after the current ones.
CREATE TEMP TABLE commit_noteable_ids AS
  SELECT (SELECT COALESCE(MAX(id), 0) FROM noteables) + ROW_NUMBER() OVER (ORDER BY project_id, sha) AS id,
    project_id, sha, COUNT(*) AS notes, MAX(created_at) AS updated_at
  FROM commit_comments GROUP BY project_id, sha;
INSERT INTO noteables (id, kind, project_id) SELECT id, 'Commit', project_id FROM commit_noteable_ids;
INSERT INTO commit_noteables (id, project_id, sha, user_notes_count, updated_at)
  SELECT id, project_id, sha, notes, updated_at FROM commit_noteable_ids;
INSERT INTO notes (noteable_id, author_id, body, system, created_at, updated_at, discussion_id, type, position)
  SELECT m.id, c.author_id, c.note, 0, c.created_at, c.created_at, lower(hex(randomblob(20))),
    CASE WHEN c.path IS NULL THEN NULL ELSE 'LegacyDiffNote' END,
    CASE WHEN c.path IS NULL THEN NULL ELSE json_object('path', c.path, 'line', c.line, 'line_type', c.line_type) END
  FROM commit_comments c JOIN commit_noteable_ids m ON m.project_id = c.project_id AND m.sha = c.sha
  ORDER BY c.id;
DROP TABLE commit_noteable_ids;
DROP TABLE commit_comments;
