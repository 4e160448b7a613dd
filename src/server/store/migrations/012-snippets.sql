-- foreign-keys: off
-- Snippets: a noteable kind (DESIGN.md §Discussions), project snippets and personal ones. A personal snippet belongs to
-- no project, so noteables.project_id becomes nullable. SQLite changes a column only by rebuilding its table, and with
-- foreign keys on, dropping the old noteables would cascade into every child (notes, awards, todos, issues…): the first
-- line makes the runner apply this file with foreign keys off and check them before committing, SQLite's documented
-- procedure. Ids are kept, so every child row still points at its noteable.
-- The merge-request trigger names noteables; RENAME refuses to run while it points at a dropped table, so it is
-- recreated after (as 010 wrote it).
DROP TRIGGER merge_requests_noteable_gone;
CREATE TABLE noteables_new (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE
);
INSERT INTO noteables_new (id, kind, project_id) SELECT id, kind, project_id FROM noteables;
DROP TABLE noteables;
ALTER TABLE noteables_new RENAME TO noteables;
CREATE INDEX noteables_project ON noteables(project_id, kind);
CREATE TRIGGER merge_requests_noteable_gone AFTER DELETE ON merge_requests
BEGIN
  DELETE FROM noteables WHERE id = old.id;
END;

-- project_id is NULL for a personal snippet. The row shares its noteable's id, like issues and merge requests.
CREATE TABLE snippets (
  id INTEGER PRIMARY KEY REFERENCES noteables(id) ON DELETE CASCADE,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id),
  title TEXT NOT NULL,
  description TEXT,
  visibility TEXT NOT NULL,
  discussion_locked INTEGER NOT NULL DEFAULT 0,
  user_notes_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX snippets_project ON snippets(project_id, id);
CREATE INDEX snippets_author ON snippets(author_id, id);
CREATE INDEX snippets_visibility ON snippets(visibility, id);

-- A snippet's files in order; `file_name` and `content` of the API are the first one.
CREATE TABLE snippet_files (
  snippet_id INTEGER NOT NULL REFERENCES snippets(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  path TEXT NOT NULL,
  content TEXT NOT NULL,
  PRIMARY KEY (snippet_id, position)
) WITHOUT ROWID;

-- A snippet row can also go by a cascade from its project; its noteables row, and with it the discussion, goes too.
CREATE TRIGGER snippets_noteable_gone AFTER DELETE ON snippets
BEGIN
  DELETE FROM noteables WHERE id = old.id;
END;

-- Award emoji on notes (GitLab's awardable Note), for the notes of every kind; awards on a noteable itself stay in
-- award_emoji, whose noteable-keyed queries (votes, my_reaction_emoji) must not count these.
CREATE TABLE note_award_emoji (
  id INTEGER PRIMARY KEY,
  note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX note_award_emoji_unique ON note_award_emoji(note_id, user_id, name);
