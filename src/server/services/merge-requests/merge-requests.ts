// Merge requests: visibility-aware reads, the three lists, and what the presenters need (bundles, draft, statuses).
import type { MergeRequestListInput } from '../../../contract/endpoints/merge-requests.js'
import { isDraft } from '../../../core/draft-title.js'
import { forbidden, notFound, unauthorized } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { canReadCode, isAdmin, openVisibilities } from '../../policy.js'
import type { MergeRequestBasic } from '../../../contract/entities/merge-requests.js'
import type { MergeRequestBundle, MergeRequestSingle } from '../../present/merge-requests.js'
import { assigneeIdsOf, labelNamesOf, usersByIds, votesOf } from '../../store/issues.js'
import * as store from '../../store/merge-requests.js'
import { milestonesByIds } from '../../store/milestones.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { isSubscribed, projectPaths } from '../issuables/discussion.js'
import { blockedByDiscussions } from '../issuables/discussions.js'
import { timeTracking, today } from '../issuables/issues.js'
import { canMergeInto } from '../repository/protected-branches.js'
import { headPipelineOf } from '../ci/pipelines.js'

export type { MergeRequestRow } from '../../store/merge-requests.js'
export { isDraft }

export const mergeRequestNotFound = () => notFound('Merge Request')

/**
 * A merge request of a visible project, for a caller who may read its merge requests (they show code): GitLab's
 * find_merge_request_with_access finds it first (404), then authorizes read_merge_request (403 to a private
 * project's guest).
 */
export function findVisibleMergeRequest(ctx: RequestContext, p: ProjectView, iid: number): store.MergeRequestRow {
  const mr = store.findMergeRequestByIid(ctx.app.db, p.id, iid)
  if (!mr) throw mergeRequestNotFound()
  if (!canReadCode(ctx, p)) throw forbidden()
  return mr
}

/** detailed_merge_status: the checks git cannot decide come first, in GitLab's order (compat-mr-ci-wiki.md §1.6). */
export function detailedStatus(r: store.MergeRequestRow, discussionsBlock = false): MergeRequestBasic['detailed_merge_status'] {
  if (r.state !== 'opened') return 'not_open'
  if (isDraft(r.title)) return 'draft_status'
  if (discussionsBlock && r.git_merge_status !== 'commits_status') return 'discussions_not_resolved'
  return r.git_merge_status
}

/** `- [ ]` and `- [x]` items of the description. */
function tasksOf(description: string | null) {
  const items = [...(description ?? '').matchAll(/^\s*(?:[-*+]|\d+\.) \[([ xX])\]/gm)]
  return { count: items.length, completed_count: items.filter((m) => m[1] !== ' ').length }
}

/** Everything the presenter needs for a page of merge requests, one query per table. */
export function bundles(ctx: RequestContext, rows: store.MergeRequestRow[]): MergeRequestBundle[] {
  const db = ctx.app.db
  const ids = rows.map((r) => r.id)
  const labels = labelNamesOf(db, ids)
  const assignees = assigneeIdsOf(db, ids)
  const reviewers = store.reviewerIdsOf(db, ids)
  const votes = votesOf(db, ids)
  const userIds = rows.flatMap((r) => [r.author_id, r.closed_by_id, r.merged_by_id, r.merge_user_id, ...(assignees.get(r.id) ?? []), ...(reviewers.get(r.id) ?? [])])
  const users = usersByIds(db, userIds.filter((id): id is number => id !== null))
  const userOf = (id: number | null) => (id === null ? null : users.get(id) ?? null)
  const milestones = milestonesByIds(db, rows.flatMap((r) => (r.milestone_id !== null ? [r.milestone_id] : [])))
  const pathOf = projectPaths(ctx)
  const day = today(ctx)
  const blocked = blockedByDiscussions(ctx, rows)
  return rows.map((r) => ({
    row: r,
    projectPath: pathOf(r.project_id),
    author: users.get(r.author_id)!,
    assignees: (assignees.get(r.id) ?? []).flatMap((id) => users.get(id) ?? []),
    reviewers: (reviewers.get(r.id) ?? []).flatMap((id) => users.get(id) ?? []),
    closedBy: userOf(r.closed_by_id),
    mergedBy: userOf(r.merged_by_id),
    mergeUser: userOf(r.merge_user_id ?? r.merged_by_id),
    labels: labels.get(r.id) ?? [],
    milestone: r.milestone_id !== null ? milestones.get(r.milestone_id) ?? null : null,
    upvotes: votes.get(r.id)?.up ?? 0,
    downvotes: votes.get(r.id)?.down ?? 0,
    timeTracking: timeTracking(r),
    draft: isDraft(r.title),
    detailedMergeStatus: detailedStatus(r, blocked.has(r.id)),
    blockingDiscussionsResolved: !blocked.has(r.id),
    tasks: tasksOf(r.description),
    today: day,
  }))
}

export const bundle = (ctx: RequestContext, row: store.MergeRequestRow) => bundles(ctx, [row])[0]

/** The single form's extras; `can_merge` is GitLab's can_be_merged_by? on the target branch. */
export function singleOf(ctx: RequestContext, row: store.MergeRequestRow, extra: Partial<MergeRequestSingle> = {}): MergeRequestSingle {
  const target = findProjectById(ctx.app.db, row.project_id)!
  const assignees = assigneeIdsOf(ctx.app.db, [row.id]).get(row.id) ?? []
  return {
    subscribed: isSubscribed(ctx, row, assignees),
    canMerge: ctx.user ? canMergeInto(ctx, target, row.target_branch) : false,
    headPipeline: headPipelineOf(ctx, row),
    firstContribution: !store.authorMergedBefore(ctx.app.db, row),
    ...extra,
  }
}

const isoOf = (s: string | undefined) => (s === undefined ? undefined : new Date(s).toISOString())

/** GitLab's `authorize! :read_merge_request, user_project` of a project's merge request list: 403 to a private project's guest. */
export function requireMergeRequestAccess(ctx: RequestContext, p: ProjectView): ProjectView {
  if (!canReadCode(ctx, p)) throw forbidden()
  return p
}

/**
 * A page of merge requests. A project's comes out empty for a caller who may not read them (search, a milestone's
 * page), as GitLab's finder leaves out projects whose merge requests need Reporter (PRIVATE_FEATURES_MIN_ACCESS_LEVEL);
 * the API's project list refuses them first (requireMergeRequestAccess).
 */
export function listMergeRequests(ctx: RequestContext, input: MergeRequestListInput, where: { project?: ProjectView; groupId?: number; milestoneId?: number }) {
  if (where.project && !canReadCode(ctx, where.project)) return { rows: [], total: 0 }
  const user = ctx.user
  const scoped = where.project || where.groupId !== undefined
  const scope = (input.scope ?? (scoped ? 'all' : 'created_by_me')).replace(/-/g, '_')
  // GitLab's `authenticate! unless params[:scope] == 'all'`: anonymous callers list the instance's public ones only.
  if (!user && !scoped && scope !== 'all') throw unauthorized()
  return store.listMergeRequests(ctx.app.db, {
    projectId: where.project?.id,
    groupId: where.groupId,
    viewer: user?.id ?? 0,
    admin: isAdmin(ctx),
    open: openVisibilities(ctx),
    state: input.state === 'all' ? undefined : input.state,
    labels: input.labels?.map((l) => l.trim()).filter(Boolean),
    milestone: input.milestone,
    milestoneId: where.milestoneId,
    iids: input.iids,
    authorId: scope === 'created_by_me' && user ? user.id : input.author_id,
    authorUsername: input.author_username,
    assignedTo: scope === 'assigned_to_me' && user ? user.id : undefined,
    assignee: input.assignee_id,
    reviewer: input.reviewer_id,
    reviewerUsername: input.reviewer_username,
    reaction: input.my_reaction_emoji,
    sourceBranch: input.source_branch,
    targetBranch: input.target_branch,
    search: input.search,
    draft: input.wip === undefined ? undefined : input.wip === 'yes',
    createdAfter: isoOf(input.created_after),
    createdBefore: isoOf(input.created_before),
    updatedAfter: isoOf(input.updated_after),
    updatedBefore: isoOf(input.updated_before),
    orderBy: input.order_by ?? 'created_at',
    sort: input.sort ?? 'desc',
    limit: ctx.page.limit,
    offset: ctx.page.offset,
  })
}
