// Issue links (related issues) and what related_merge_requests searches: merge requests whose text or notes may
// name an issue.
import { stmt, write, type Db } from './db.js'
import type { MergeRequestRow } from './merge-requests.js'

export interface IssueLinkRow {
  id: number
  source_id: number
  target_id: number
  link_type: 'relates_to' | 'blocks'
  created_at: string
  updated_at: string
}

export function insertIssueLink(db: Db, row: Omit<IssueLinkRow, 'id'>): IssueLinkRow {
  const id = Number(write(db, 'issue_links', `INSERT INTO issue_links (source_id, target_id, link_type, created_at, updated_at)
    VALUES (@source_id, @target_id, @link_type, @created_at, @updated_at)`).run(row).lastInsertRowid)
  return { id, ...row }
}

/** The link between two issues in either direction. */
export const findLinkBetween = (db: Db, a: number, b: number) =>
  stmt(db, 'SELECT * FROM issue_links WHERE (source_id = ? AND target_id = ?) OR (source_id = ? AND target_id = ?)').get(a, b, b, a) as IssueLinkRow | undefined

/** A link by id, only when the issue is one of its ends (GitLab's for_source_or_target). */
export const findLinkOf = (db: Db, issueId: number, id: number) =>
  stmt(db, 'SELECT * FROM issue_links WHERE id = ? AND (source_id = ? OR target_id = ?)').get(id, issueId, issueId) as IssueLinkRow | undefined

/** Every link of an issue, oldest first. */
export const linksOf = (db: Db, issueId: number) =>
  stmt(db, 'SELECT * FROM issue_links WHERE source_id = ? OR target_id = ? ORDER BY id').all(issueId, issueId) as IssueLinkRow[]

export const linkCount = (db: Db, issueId: number) =>
  (stmt(db, 'SELECT COUNT(*) AS n FROM issue_links WHERE source_id = ? OR target_id = ?').get(issueId, issueId) as { n: number }).n

export const deleteIssueLink = (db: Db, id: number) => write(db, 'issue_links', 'DELETE FROM issue_links WHERE id = ?').run(id)

/**
 * Merge requests that close the issue, and those whose title, description or a note holds `#<iid>` or
 * `issues/<iid>` somewhere (the service checks that the text really names the issue), oldest first.
 */
export function mergeRequestsNaming(db: Db, issueId: number, iid: number): MergeRequestRow[] {
  const short = `%#${iid}%`
  const url = `%issues/${iid}%`
  return stmt(db, `SELECT m.* FROM merge_requests m WHERE m.id IN (SELECT merge_request_id FROM merge_request_closing_issues WHERE issue_id = @issue)
      OR m.title LIKE @short OR m.title LIKE @url OR m.description LIKE @short OR m.description LIKE @url
      OR EXISTS (SELECT 1 FROM notes n WHERE n.noteable_id = m.id AND (n.body LIKE @short OR n.body LIKE @url))
    ORDER BY m.id`).all({ issue: issueId, short, url }) as MergeRequestRow[]
}

export const closesIssue = (db: Db, mergeRequestId: number, issueId: number) =>
  stmt(db, 'SELECT 1 FROM merge_request_closing_issues WHERE merge_request_id = ? AND issue_id = ?').get(mergeRequestId, issueId) !== undefined

export const noteBodiesOf = (db: Db, noteableId: number) =>
  (stmt(db, 'SELECT body FROM notes WHERE noteable_id = ? ORDER BY id').all(noteableId) as { body: string }[]).map((r) => r.body)
