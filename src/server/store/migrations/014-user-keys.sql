-- A user's SSH keys, GPG keys, secondary emails, status and avatar.
CREATE TABLE ssh_keys (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  fingerprint_sha256 TEXT NOT NULL UNIQUE,
  usage_type TEXT NOT NULL DEFAULT 'auth_and_signing',
  created_at TEXT NOT NULL,
  expires_at TEXT
);
CREATE INDEX ssh_keys_user ON ssh_keys(user_id, id);

CREATE TABLE gpg_keys (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE INDEX gpg_keys_user ON gpg_keys(user_id, id);

CREATE TABLE user_emails (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  confirmed_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX user_emails_user ON user_emails(user_id, id);

CREATE TABLE user_statuses (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  emoji TEXT,
  message TEXT,
  availability TEXT NOT NULL DEFAULT 'not_set',
  clear_status_at TEXT
);

ALTER TABLE users ADD COLUMN avatar_path TEXT;
