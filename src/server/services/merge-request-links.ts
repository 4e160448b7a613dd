// What links merge requests to issues and commits: closes_issues, an issue's closed_by, a commit's merge requests.
import type { RequestContext } from '../context.js'
import { canReadIssue, canReadProject } from '../policy.js'
import { assigneeIdsOf, findIssueById, type IssueRow } from '../store/issues.js'
import * as store from '../store/merge-requests.js'
import { findProjectById } from '../store/projects.js'

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

/** Merge requests that close the issue, in projects the caller may read. */
export function closedBy(ctx: RequestContext, issue: IssueRow): store.MergeRequestRow[] {
  const db = ctx.app.db
  return store.mergeRequestsClosing(db, issue.id).filter((mr) => {
    const p = findProjectById(db, mr.project_id)
    return p !== undefined && canReadProject(ctx, p)
  })
}

export const commitMergeRequests = (ctx: RequestContext, projectId: number, sha: string) => store.mergeRequestsWithCommit(ctx.app.db, projectId, sha)
