// Merge requests: rows, the filtered list query, reviewers, approvals, the issues each would close and the commits each holds.
import { inIds, stmt, write, type Db } from './db.js'
import { clausesOf, issuableConditions, listOrder, listQuery, readableProjects, userCondition, type IssuableFilters, type UserFilter } from './issuable-lists.js'
import { byIds, insertKindRow, updateNoteable, userListsByOwner } from './noteables.js'
import { findProjectById } from './projects.js'

export type MergeRequestState = 'opened' | 'closed' | 'locked' | 'merged'
export type GitMergeStatus = 'unchecked' | 'commits_status' | 'conflict' | 'need_rebase' | 'mergeable'

export interface MergeRequestRow {
  id: number
  project_id: number
  iid: number
  /** NULL once the source project (a fork) is deleted: GitLab's source_project_missing?. */
  source_project_id: number | null
  source_branch: string
  target_branch: string
  title: string
  description: string | null
  state: MergeRequestState
  author_id: number
  milestone_id: number | null
  discussion_locked: number | null
  time_estimate: number
  total_time_spent: number
  user_notes_count: number
  merge_status: 'unchecked' | 'can_be_merged' | 'cannot_be_merged'
  git_merge_status: GitMergeStatus
  source_sha: string | null
  target_sha: string | null
  base_sha: string | null
  changes_count: string | null
  merge_when_pipeline_succeeds: number
  merge_user_id: number | null
  should_remove_source_branch: number | null
  force_remove_source_branch: number
  squash: number
  allow_collaboration: number
  merge_commit_sha: string | null
  squash_commit_sha: string | null
  merge_error: string | null
  merged_by_id: number | null
  merged_at: string | null
  closed_by_id: number | null
  closed_at: string | null
  prepared_at: string | null
  /** JSON of a deferred merge's MergeParams (merge when pipeline succeeds). */
  merge_params: string | null
  created_at: string
  updated_at: string
}

export type NewMergeRequest = Pick<MergeRequestRow, 'project_id' | 'iid' | 'source_project_id' | 'source_branch' | 'target_branch' | 'title'
  | 'description' | 'author_id' | 'milestone_id' | 'force_remove_source_branch' | 'squash' | 'allow_collaboration' | 'created_at' | 'updated_at'>
export type MergeRequestPatch = Partial<Omit<MergeRequestRow, 'id' | 'project_id' | 'iid' | 'author_id' | 'created_at'>>

export const insertMergeRequest = (db: Db, mr: NewMergeRequest) => insertKindRow<MergeRequestRow>(db, 'MergeRequest', mr)

export const updateMergeRequest = (db: Db, id: number, patch: MergeRequestPatch) => updateNoteable(db, 'MergeRequest', id, patch)

/**
 * Whether the author had a merge request merged in the project before this one (GitLab's first_contribution is its
 * negation: for an open merge request, any merged one counts; for a merged one, those merged before it).
 */
export const authorMergedBefore = (db: Db, mr: Pick<MergeRequestRow, 'id' | 'project_id' | 'author_id' | 'merged_at'>) =>
  stmt(db, `SELECT 1 FROM merge_requests WHERE project_id = @project_id AND author_id = @author_id AND state = 'merged' AND id != @id
    AND (@merged_at IS NULL OR merged_at < @merged_at OR (merged_at = @merged_at AND id < @id)) LIMIT 1`).get(mr) !== undefined

export const findMergeRequestByIid = (db: Db, projectId: number, iid: number) =>
  stmt(db, 'SELECT * FROM merge_requests WHERE project_id = ? AND iid = ?').get(projectId, iid) as MergeRequestRow | undefined

export const findMergeRequestById = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM merge_requests WHERE id = ?').get(id) as MergeRequestRow | undefined

/** The open merge request from the same source branch into the same target branch, other than `exceptId`. */
export const findOpenTwin = (db: Db, m: Pick<MergeRequestRow, 'source_project_id' | 'source_branch' | 'project_id' | 'target_branch'>, exceptId = 0) =>
  stmt(db, `SELECT * FROM merge_requests WHERE source_project_id = ? AND source_branch = ? AND project_id = ? AND target_branch = ?
    AND state = 'opened' AND id != ?`).get(m.source_project_id, m.source_branch, m.project_id, m.target_branch, exceptId) as MergeRequestRow | undefined

/** The project a merge request comes from; undefined once that fork is deleted. */
export const sourceProjectOf = (db: Db, mr: Pick<MergeRequestRow, 'source_project_id'>) =>
  mr.source_project_id === null ? undefined : findProjectById(db, mr.source_project_id)

/** The open merge requests a project (a fork) opened in other projects: what deleting it closes. */
export const openFromProjectElsewhere = (db: Db, projectId: number) =>
  stmt(db, "SELECT * FROM merge_requests WHERE source_project_id = ? AND project_id != ? AND state = 'opened' ORDER BY id")
    .all(projectId, projectId) as MergeRequestRow[]

/** Open merge requests whose source or target is one of `branches` of the project: what a push to them affects. */
export function openOnBranches(db: Db, projectId: number, branches: string[]): MergeRequestRow[] {
  if (!branches.length) return []
  return stmt(db, `SELECT * FROM merge_requests WHERE state = 'opened' AND (
    (project_id = @project AND target_branch IN (SELECT value FROM json_each(@branches)))
    OR (source_project_id = @project AND source_branch IN (SELECT value FROM json_each(@branches)))) ORDER BY id`)
    .all({ project: projectId, branches: JSON.stringify(branches) }) as MergeRequestRow[]
}

export const reviewerIdsOf = (db: Db, ids: number[]): Map<number, number[]> =>
  userListsByOwner(byIds(db, (m) =>
    `SELECT merge_request_id AS owner, user_id FROM merge_request_reviewers WHERE merge_request_id ${m} ORDER BY merge_request_id, position`, ids))

export function setReviewers(db: Db, id: number, userIds: number[]) {
  write(db, 'merge_request_reviewers', 'DELETE FROM merge_request_reviewers WHERE merge_request_id = ?').run(id)
  ;[...new Set(userIds)].forEach((u, i) => write(db, 'merge_request_reviewers', 'INSERT INTO merge_request_reviewers (merge_request_id, user_id, position) VALUES (?, ?, ?)').run(id, u, i))
}

/** Approvers in the order they approved. */
export const approverIds = (db: Db, id: number) =>
  (stmt(db, 'SELECT user_id FROM merge_request_approvals WHERE merge_request_id = ? ORDER BY created_at, user_id').all(id) as { user_id: number }[]).map((r) => r.user_id)

export const addApproval = (db: Db, id: number, userId: number, at: string) =>
  write(db, 'merge_request_approvals', 'INSERT OR IGNORE INTO merge_request_approvals (merge_request_id, user_id, created_at) VALUES (?, ?, ?)').run(id, userId, at)

/** Removes one user's approval, or every approval without `userId`; the number removed. */
export const removeApprovals = (db: Db, id: number, userId?: number) => userId === undefined
  ? write(db, 'merge_request_approvals', 'DELETE FROM merge_request_approvals WHERE merge_request_id = ?').run(id).changes
  : write(db, 'merge_request_approvals', 'DELETE FROM merge_request_approvals WHERE merge_request_id = ? AND user_id = ?').run(id, userId).changes

export function setClosingIssues(db: Db, id: number, issueIds: number[]) {
  write(db, 'merge_request_closing_issues', 'DELETE FROM merge_request_closing_issues WHERE merge_request_id = ?').run(id)
  for (const issue of new Set(issueIds)) write(db, 'merge_request_closing_issues', 'INSERT INTO merge_request_closing_issues (merge_request_id, issue_id) VALUES (?, ?)').run(id, issue)
}

export const closingIssueIds = (db: Db, id: number) =>
  (stmt(db, 'SELECT issue_id FROM merge_request_closing_issues WHERE merge_request_id = ? ORDER BY issue_id').all(id) as { issue_id: number }[]).map((r) => r.issue_id)

/** How many merge requests of each project close (or closed) each issue: what the issues' merge_requests_count sums. */
export const closingCountsByProject = (db: Db, issueIds: number[]) =>
  byIds<{ issue_id: number; project_id: number; n: number }>(db, (m) => `SELECT c.issue_id, m.project_id, COUNT(*) AS n
    FROM merge_request_closing_issues c JOIN merge_requests m ON m.id = c.merge_request_id WHERE c.issue_id ${m} GROUP BY c.issue_id, m.project_id`, issueIds)

/** Merge requests that close (or, merged, closed) the issue, oldest first. */
export const mergeRequestsClosing = (db: Db, issueId: number) =>
  stmt(db, `SELECT m.* FROM merge_requests m JOIN merge_request_closing_issues c ON c.merge_request_id = m.id
    WHERE c.issue_id = ? ORDER BY m.id`).all(issueId) as MergeRequestRow[]

export function setCommits(db: Db, id: number, shas: string[]) {
  write(db, 'merge_request_commits', 'DELETE FROM merge_request_commits WHERE merge_request_id = ?').run(id)
  for (const sha of new Set(shas)) write(db, 'merge_request_commits', 'INSERT INTO merge_request_commits (merge_request_id, sha) VALUES (?, ?)').run(id, sha)
}

/** Merge requests of a project holding the commit, or merged as it. */
export const mergeRequestsWithCommit = (db: Db, projectId: number, sha: string) =>
  stmt(db, `SELECT * FROM merge_requests WHERE project_id = @project AND (merge_commit_sha = @sha OR squash_commit_sha = @sha
    OR id IN (SELECT merge_request_id FROM merge_request_commits WHERE sha = @sha)) ORDER BY id DESC`).all({ project: projectId, sha }) as MergeRequestRow[]

export interface MergeRequestFilters extends IssuableFilters {
  state?: MergeRequestState
  authorUsername?: string
  reviewer?: UserFilter
  reviewerUsername?: string
  sourceBranch?: string
  targetBranch?: string
  /** Draft titles only (true) or the others (false): the prefixes of draftPattern. */
  draft?: boolean
}

/** A draft title in SQL, the prefixes of services/merge-requests/merge-requests.ts isDraft (LIKE ignores ASCII case). */
const DRAFT_SQL = `(ltrim(m.title) LIKE '[draft]%' OR ltrim(m.title) LIKE '(draft)%' OR ltrim(m.title) LIKE 'draft:%'
  OR ltrim(m.title) LIKE 'draft -%' OR trim(m.title) LIKE 'draft' OR ltrim(m.title) LIKE '[wip]%' OR ltrim(m.title) LIKE 'wip:%'
  OR ltrim(m.title) LIKE 'wip %')`

export function listMergeRequests(db: Db, f: MergeRequestFilters): { rows: MergeRequestRow[]; total: number } {
  const q = listQuery('m', f)
  // Merge requests show code: where membership is what lets the viewer in, Reporter and up (policy.ts canReadCode).
  if (!f.admin && f.projectId === undefined) readableProjects(q, 'm', f, 20)
  issuableConditions(db, q, 'm', f)
  const { where, args } = q
  if (f.reviewer !== undefined) userCondition(q, 'm', 'merge_request_reviewers', 'merge_request_id', 'reviewer', f.reviewer)
  if (f.reviewerUsername !== undefined) {
    where.push('EXISTS (SELECT 1 FROM merge_request_reviewers r JOIN users u ON u.id = r.user_id WHERE r.merge_request_id = m.id AND u.username = @reviewerName)')
    args.reviewerName = f.reviewerUsername
  }
  if (f.authorUsername !== undefined) { where.push('m.author_id IN (SELECT id FROM users WHERE username = @authorName)'); args.authorName = f.authorUsername }
  if (f.sourceBranch !== undefined) { where.push('m.source_branch = @sourceBranch'); args.sourceBranch = f.sourceBranch }
  if (f.targetBranch !== undefined) { where.push('m.target_branch = @targetBranch'); args.targetBranch = f.targetBranch }
  if (f.draft !== undefined) where.push(f.draft ? DRAFT_SQL : `NOT ${DRAFT_SQL}`)
  const { cte, clause } = clausesOf(q)
  const total = (stmt(db, `${cte}SELECT COUNT(*) AS n FROM merge_requests m ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `${cte}SELECT m.* FROM merge_requests m ${clause} ${listOrder('m', f, f.sort)} LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as MergeRequestRow[]
  return { rows, total }
}
