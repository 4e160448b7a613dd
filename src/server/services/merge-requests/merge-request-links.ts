// What links merge requests to issues and commits: closes_issues, an issue's closed_by, a commit's merge requests.
import type { RequestContext } from '../../context.js'
import { canReadCode, canReadIssue, canReadProject } from '../../policy.js'
import { assigneeIdsOf, findIssueById, type IssueRow } from '../../store/issues.js'
import * as store from '../../store/merge-requests.js'
import { findProjectById } from '../../store/projects.js'

/** The issues the merge request closes (or closed) that the caller may read. */
export function closesIssues(ctx: RequestContext, mr: store.MergeRequestRow): IssueRow[] {
  const db = ctx.app.db
  return store.closingIssueIds(db, mr.id).flatMap((id) => {
    const issue = findIssueById(db, id)
    const project = issue && findProjectById(db, issue.project_id)
    if (!issue || !project || !canReadProject(ctx, project)) return []
    return canReadIssue(ctx, project, issue, assigneeIdsOf(db, [id]).get(id) ?? []) ? [issue] : []
  })
}

/** Whether the caller may read the merge requests of a project, by its id. */
export function readsMergeRequestsOf(ctx: RequestContext, projectId: number) {
  const p = findProjectById(ctx.app.db, projectId)
  return p !== undefined && canReadCode(ctx, p)
}

/** Merge requests that close the issue, in projects whose merge requests the caller may read. */
export const closedBy = (ctx: RequestContext, issue: IssueRow): store.MergeRequestRow[] =>
  store.mergeRequestsClosing(ctx.app.db, issue.id).filter((mr) => readsMergeRequestsOf(ctx, mr.project_id))

/** The issues' merge_requests_count: the merge requests closing each that the caller may read (GitLab counts for the user). */
export function closingCounts(ctx: RequestContext, issueIds: number[]): Map<number, number> {
  const counts = new Map<number, number>()
  for (const r of store.closingCountsByProject(ctx.app.db, issueIds)) {
    if (readsMergeRequestsOf(ctx, r.project_id)) counts.set(r.issue_id, (counts.get(r.issue_id) ?? 0) + r.n)
  }
  return counts
}

export const commitMergeRequests = (ctx: RequestContext, projectId: number, sha: string) => store.mergeRequestsWithCommit(ctx.app.db, projectId, sha)
