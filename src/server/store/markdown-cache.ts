// Rendered markdown by the hash of what it was rendered from (see migration 031); services/markup/markdown.ts owns its use.
import { stmt, write, type Db } from './db.js'

export const findRenderedMarkdown = (db: Db, key: string) =>
  (stmt(db, 'SELECT html FROM markdown_cache WHERE key_sha256 = ?').get(key) as { html: string } | undefined)?.html

/** Keeps a render, then drops the oldest rows beyond `budget` bytes of HTML in all (the new row always stays). */
export function saveRenderedMarkdown(db: Db, key: string, html: string, budget: number) {
  write(db, 'markdown_cache', 'INSERT OR IGNORE INTO markdown_cache (key_sha256, html, bytes) VALUES (?, ?, ?)').run(key, html, html.length)
  write(db, 'markdown_cache', `DELETE FROM markdown_cache WHERE id <= (
      SELECT MAX(id) FROM (SELECT id, SUM(bytes) OVER (ORDER BY id DESC) AS total FROM markdown_cache) WHERE total > ?
    ) AND id < (SELECT MAX(id) FROM markdown_cache)`).run(budget)
}
