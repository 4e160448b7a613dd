-- Rendered markdown, kept so that a page view never renders an unchanged long text again (as GitLab's
-- cached_markdown_fields). A row is found by the SHA-256 of the renderer version, the reference context and the
-- source; a changed text has another key, so rows are never updated, only evicted oldest first past a byte budget
-- (services/markup/markdown.ts owns it). `bytes` is the length of `html`, kept apart so the budget is summed without reading it.
CREATE TABLE markdown_cache (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  key_sha256 TEXT NOT NULL UNIQUE,
  html TEXT NOT NULL,
  bytes INTEGER NOT NULL
);
