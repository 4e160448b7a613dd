-- Releases (GitLab's releases, release_links and milestone_releases): one release per tag of a project. `sha` is the
-- commit the tag pointed at when the release was made; the tag itself lives in git and may move or go.
CREATE TABLE releases (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  -- NULL means "the tag's name", as GitLab's Release#name.
  name TEXT,
  description TEXT,
  author_id INTEGER NOT NULL REFERENCES users(id),
  sha TEXT,
  released_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, tag)
);
CREATE INDEX releases_project_released_at ON releases (project_id, released_at);
CREATE INDEX releases_author ON releases (author_id);

-- Asset links; `filepath` (a path starting with `/`) gives the link a permanent URL under the release.
CREATE TABLE release_links (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  filepath TEXT,
  link_type TEXT NOT NULL DEFAULT 'other',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (release_id, name),
  UNIQUE (release_id, url)
);
CREATE UNIQUE INDEX release_links_filepath ON release_links (release_id, filepath) WHERE filepath IS NOT NULL;

CREATE TABLE milestone_releases (
  milestone_id INTEGER NOT NULL REFERENCES milestones(id) ON DELETE CASCADE,
  release_id INTEGER NOT NULL REFERENCES releases(id) ON DELETE CASCADE,
  PRIMARY KEY (milestone_id, release_id)
);
CREATE INDEX milestone_releases_release ON milestone_releases (release_id);
