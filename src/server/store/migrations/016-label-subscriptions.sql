-- Who is subscribed to a project label (POST …/labels/:label_id/subscribe): one row per subscriber.
CREATE TABLE label_subscriptions (
  label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (label_id, user_id)
) WITHOUT ROWID;
CREATE INDEX label_subscriptions_user ON label_subscriptions(user_id);
