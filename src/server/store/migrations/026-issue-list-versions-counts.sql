-- What issue lists read, kept by the database in each write's own transaction (see store/issues.ts).
--
-- `issues.list_version`: every change to what an issue's list form shows (its row, labels, assignees, votes, the merge
-- requests closing it) gives the issue a new number from one clock, so a remembered JSON text of it is checked against
-- one integer instead of re-reading the row and its relations. Numbers are never handed out twice, even when an
-- issue's id is reused after a delete.
--
-- `issue_counts` and `issue_label_counts`: how many issues a project has by state, and by label and state. After every
-- new issue, a list's X-Total used to count the project's issues again (10,000 index entries, more than the page cost).
--
-- Rebuilding issues, noteable_labels, noteable_assignees, award_emoji or merge_request_closing_issues drops the
-- triggers below: a migration that does must create them again.
CREATE TABLE issue_list_clock (n INTEGER NOT NULL);
INSERT INTO issue_list_clock VALUES (0);
ALTER TABLE issues ADD COLUMN list_version INTEGER NOT NULL DEFAULT 0;

CREATE TABLE issue_counts (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  state TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (project_id, state)
) WITHOUT ROWID;
INSERT INTO issue_counts SELECT project_id, state, COUNT(*) FROM issues GROUP BY project_id, state;

CREATE TABLE issue_label_counts (
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  state TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (label_id, project_id, state)
) WITHOUT ROWID;
CREATE INDEX issue_label_counts_project ON issue_label_counts(project_id);
INSERT INTO issue_label_counts SELECT nl.label_id, i.project_id, i.state, COUNT(*)
  FROM noteable_labels nl JOIN issues i ON i.id = nl.noteable_id GROUP BY 1, 2, 3;

-- An issue's labels may be written before or after its row: each side counts only what the other has already written.
CREATE TRIGGER issues_after_insert AFTER INSERT ON issues BEGIN
  UPDATE issue_list_clock SET n = n + 1;
  UPDATE issues SET list_version = (SELECT n FROM issue_list_clock) WHERE id = NEW.id;
  INSERT INTO issue_counts (project_id, state, n) VALUES (NEW.project_id, NEW.state, 1)
    ON CONFLICT (project_id, state) DO UPDATE SET n = n + 1;
  INSERT INTO issue_label_counts (label_id, project_id, state, n)
    SELECT label_id, NEW.project_id, NEW.state, 1 FROM noteable_labels WHERE noteable_id = NEW.id
    ON CONFLICT (label_id, project_id, state) DO UPDATE SET n = n + 1;
END;

-- Any update, including the no-op `SET list_version = list_version` the relation triggers below make.
CREATE TRIGGER issues_after_update AFTER UPDATE ON issues WHEN NEW.list_version = OLD.list_version BEGIN
  UPDATE issue_list_clock SET n = n + 1;
  UPDATE issues SET list_version = (SELECT n FROM issue_list_clock) WHERE id = NEW.id;
END;

CREATE TRIGGER issues_after_move AFTER UPDATE OF project_id, state ON issues
  WHEN OLD.project_id IS NOT NEW.project_id OR OLD.state IS NOT NEW.state BEGIN
  UPDATE issue_counts SET n = n - 1 WHERE project_id = OLD.project_id AND state = OLD.state;
  INSERT INTO issue_counts (project_id, state, n) VALUES (NEW.project_id, NEW.state, 1)
    ON CONFLICT (project_id, state) DO UPDATE SET n = n + 1;
  UPDATE issue_label_counts SET n = n - 1 WHERE project_id = OLD.project_id AND state = OLD.state
    AND label_id IN (SELECT label_id FROM noteable_labels WHERE noteable_id = NEW.id);
  INSERT INTO issue_label_counts (label_id, project_id, state, n)
    SELECT label_id, NEW.project_id, NEW.state, 1 FROM noteable_labels WHERE noteable_id = NEW.id
    ON CONFLICT (label_id, project_id, state) DO UPDATE SET n = n + 1;
END;

-- The issue's labels may already be gone (cascades run in no set order): then their own trigger has counted them off.
CREATE TRIGGER issues_after_delete AFTER DELETE ON issues BEGIN
  UPDATE issue_counts SET n = n - 1 WHERE project_id = OLD.project_id AND state = OLD.state;
  UPDATE issue_label_counts SET n = n - 1 WHERE project_id = OLD.project_id AND state = OLD.state
    AND label_id IN (SELECT label_id FROM noteable_labels WHERE noteable_id = OLD.id);
END;

CREATE TRIGGER noteable_labels_after_insert AFTER INSERT ON noteable_labels BEGIN
  INSERT INTO issue_label_counts (label_id, project_id, state, n)
    SELECT NEW.label_id, project_id, state, 1 FROM issues WHERE id = NEW.noteable_id
    ON CONFLICT (label_id, project_id, state) DO UPDATE SET n = n + 1;
  UPDATE issues SET list_version = list_version WHERE id = NEW.noteable_id;
END;

CREATE TRIGGER noteable_labels_after_delete AFTER DELETE ON noteable_labels BEGIN
  UPDATE issue_label_counts SET n = n - 1 WHERE label_id = OLD.label_id
    AND (project_id, state) = (SELECT project_id, state FROM issues WHERE id = OLD.noteable_id);
  UPDATE issues SET list_version = list_version WHERE id = OLD.noteable_id;
END;

CREATE TRIGGER noteable_labels_after_update AFTER UPDATE ON noteable_labels BEGIN
  UPDATE issue_label_counts SET n = n - 1 WHERE label_id = OLD.label_id
    AND (project_id, state) = (SELECT project_id, state FROM issues WHERE id = OLD.noteable_id);
  INSERT INTO issue_label_counts (label_id, project_id, state, n)
    SELECT NEW.label_id, project_id, state, 1 FROM issues WHERE id = NEW.noteable_id
    ON CONFLICT (label_id, project_id, state) DO UPDATE SET n = n + 1;
  UPDATE issues SET list_version = list_version WHERE id IN (OLD.noteable_id, NEW.noteable_id);
END;

CREATE TRIGGER noteable_assignees_after_insert AFTER INSERT ON noteable_assignees BEGIN
  UPDATE issues SET list_version = list_version WHERE id = NEW.noteable_id;
END;
CREATE TRIGGER noteable_assignees_after_delete AFTER DELETE ON noteable_assignees BEGIN
  UPDATE issues SET list_version = list_version WHERE id = OLD.noteable_id;
END;
CREATE TRIGGER noteable_assignees_after_update AFTER UPDATE ON noteable_assignees BEGIN
  UPDATE issues SET list_version = list_version WHERE id IN (OLD.noteable_id, NEW.noteable_id);
END;

CREATE TRIGGER award_emoji_after_insert AFTER INSERT ON award_emoji BEGIN
  UPDATE issues SET list_version = list_version WHERE id = NEW.noteable_id;
END;
CREATE TRIGGER award_emoji_after_delete AFTER DELETE ON award_emoji BEGIN
  UPDATE issues SET list_version = list_version WHERE id = OLD.noteable_id;
END;
CREATE TRIGGER award_emoji_after_update AFTER UPDATE ON award_emoji BEGIN
  UPDATE issues SET list_version = list_version WHERE id IN (OLD.noteable_id, NEW.noteable_id);
END;

CREATE TRIGGER merge_request_closing_issues_after_insert AFTER INSERT ON merge_request_closing_issues BEGIN
  UPDATE issues SET list_version = list_version WHERE id = NEW.issue_id;
END;
CREATE TRIGGER merge_request_closing_issues_after_delete AFTER DELETE ON merge_request_closing_issues BEGIN
  UPDATE issues SET list_version = list_version WHERE id = OLD.issue_id;
END;
CREATE TRIGGER merge_request_closing_issues_after_update AFTER UPDATE ON merge_request_closing_issues BEGIN
  UPDATE issues SET list_version = list_version WHERE id IN (OLD.issue_id, NEW.issue_id);
END;
