// Merge requests: visibility-aware reads, the three lists, and what the presenters need (bundles, draft, statuses).
import type { MergeRequestListInput } from '../../../contract/endpoints/merge-requests.js'
import { isDraft } from '../../../core/draft-title.js'
import { forbidden, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { canReadCode } from '../../policy.js'
import type { MergeRequestBasic } from '../../../contract/entities/merge-requests.js'
import type { MergeRequestBundle, MergeRequestSingle } from '../../present/merge-requests.js'
import { assigneeIdsOf } from '../../store/issues.js'
import * as store from '../../store/merge-requests.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { isSubscribed } from '../issuables/discussion.js'
import { blockedByDiscussions } from '../issuables/discussions.js'
import { issuableBundles, issuableFilters, issuableRelations, type ListWhere } from '../issuables/issuable-lists.js'
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
  const reviewers = store.reviewerIdsOf(ctx.app.db, rows.map((r) => r.id))
  const { bundles, userOf } = issuableBundles(ctx, rows, issuableRelations(ctx, rows.map((r) => r.id)),
    (r) => [r.merged_by_id, r.merge_user_id, ...(reviewers.get(r.id) ?? [])])
  const blocked = blockedByDiscussions(ctx, rows)
  return bundles.map((b) => {
    const r = b.row
    const out = b as MergeRequestBundle
    out.reviewers = (reviewers.get(r.id) ?? []).flatMap((id) => userOf(id) ?? [])
    out.mergedBy = userOf(r.merged_by_id)
    out.mergeUser = userOf(r.merge_user_id ?? r.merged_by_id)
    out.draft = isDraft(r.title)
    out.detailedMergeStatus = detailedStatus(r, blocked.has(r.id))
    out.blockingDiscussionsResolved = !blocked.has(r.id)
    out.tasks = tasksOf(r.description)
    return out
  })
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
export function listMergeRequests(ctx: RequestContext, input: MergeRequestListInput, where: ListWhere) {
  if (where.project && !canReadCode(ctx, where.project)) return { rows: [], total: 0 }
  return store.listMergeRequests(ctx.app.db, {
    ...issuableFilters(ctx, input, where),
    authorUsername: input.author_username,
    reviewer: input.reviewer_id,
    reviewerUsername: input.reviewer_username,
    sourceBranch: input.source_branch,
    targetBranch: input.target_branch,
    draft: input.wip === undefined ? undefined : input.wip === 'yes',
  })
}
