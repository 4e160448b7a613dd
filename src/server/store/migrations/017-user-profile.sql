-- The rest of a user's profile that PUT /users/:id sets: public and commit emails, pronouns, appearance.
ALTER TABLE users ADD COLUMN public_email TEXT;
ALTER TABLE users ADD COLUMN commit_email TEXT;
ALTER TABLE users ADD COLUMN pronouns TEXT;
ALTER TABLE users ADD COLUMN theme_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN color_scheme_id INTEGER NOT NULL DEFAULT 1;
