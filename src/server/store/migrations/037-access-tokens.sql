-- Project and group access tokens (GitLab's resource access tokens) and users' external identities.
-- A resource access token is a personal access token of a bot user (users.user_type 'project_bot', as GitLab names
-- both kinds) who is a member of one project or group: the tokens table stays the one token mechanism.
ALTER TABLE users ADD COLUMN user_type TEXT;
ALTER TABLE tokens ADD COLUMN description TEXT;

-- Which project or group a bot user was made for (GitLab's users.bot_namespace_id); exactly one of the two.
CREATE TABLE resource_access_bots (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
  CHECK ((project_id IS NULL) <> (group_id IS NULL))
);
CREATE INDEX resource_access_bots_project ON resource_access_bots(project_id) WHERE project_id IS NOT NULL;
CREATE INDEX resource_access_bots_group ON resource_access_bots(group_id) WHERE group_id IS NOT NULL;

-- A user's account at an external provider (LDAP, SAML, OmniAuth): one per provider per user, and an extern_uid
-- names one user per provider, compared without case as GitLab's Identity validates it.
CREATE TABLE identities (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  extern_uid TEXT NOT NULL,
  saml_provider_id INTEGER,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX identities_user_provider ON identities(user_id, provider);
CREATE UNIQUE INDEX identities_provider_uid ON identities(provider, extern_uid COLLATE NOCASE);
