-- Who approved which merge request (GitLab FOSS's approvals: any number, no rules).
CREATE TABLE merge_request_approvals (
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (merge_request_id, user_id)
) WITHOUT ROWID;
