// Merge requests as GitLab 17 serializes them: the simple, list (basic) and single forms (entities/merge-requests.ts).
import type { MergeRequest, MergeRequestApprovals, MergeRequestBasic, MergeRequestSimple } from '../../contract/entities/merge-requests.js'
import type { RequestContext } from '../context.js'
import type { MergeRequestRow } from '../store/merge-requests.js'
import type { UserRow } from '../store/users.js'
import { presentIssuableHead, presentTimeStats, type IssuableBundle } from './issuables.js'
import { presentMilestone } from './issues.js'
import { presentUserBasic } from './users.js'
import { presentPipeline, presentPipelineBasic } from './pipelines.js'
import type { HeadPipeline } from '../services/ci/pipelines.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

export interface MergeRequestBundle extends IssuableBundle<MergeRequestRow> {
  reviewers: UserRow[]
  mergedBy: UserRow | null
  mergeUser: UserRow | null
  draft: boolean
  detailedMergeStatus: MergeRequestBasic['detailed_merge_status']
  /** GitLab's mergeable_discussions_state?: false only while the project requires resolved threads and one is not. */
  blockingDiscussionsResolved: boolean
  tasks: { count: number; completed_count: number }
}

/** What only the single form shows. */
export interface MergeRequestSingle {
  subscribed: boolean
  canMerge: boolean
  divergedCommitsCount?: number
  rebaseInProgress?: boolean
  headPipeline?: HeadPipeline | null
  firstContribution: boolean
}

export function presentMergeRequestSimple(b: MergeRequestBundle, ctx: Urls): MergeRequestSimple {
  const r = b.row
  return {
    ...presentIssuableHead(r),
    web_url: `${ctx.baseUrl}/${b.projectPath}/-/merge_requests/${r.iid}`,
  }
}

const user = (u: UserRow | null, ctx: Urls) => (u ? presentUserBasic(u, ctx) : null)

export function presentMergeRequestBasic(b: MergeRequestBundle, ctx: Urls): MergeRequestBasic {
  const r = b.row
  const assignees = b.assignees.map((u) => presentUserBasic(u, ctx))
  const fork = r.source_project_id !== r.project_id
  return {
    ...presentIssuableHead(r),
    merged_by: user(b.mergedBy, ctx),
    merge_user: user(b.mergeUser, ctx),
    merged_at: r.merged_at,
    closed_by: user(b.closedBy, ctx),
    closed_at: r.closed_at,
    target_branch: r.target_branch,
    source_branch: r.source_branch,
    user_notes_count: r.user_notes_count,
    upvotes: b.upvotes,
    downvotes: b.downvotes,
    author: presentUserBasic(b.author, ctx),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: b.reviewers.map((u) => presentUserBasic(u, ctx)),
    source_project_id: r.source_project_id,
    target_project_id: r.project_id,
    labels: b.labels,
    draft: b.draft,
    imported: false,
    imported_from: 'none',
    work_in_progress: b.draft,
    milestone: b.milestone ? presentMilestone(b.milestone, b.projectPath, b.today, ctx) : null,
    merge_when_pipeline_succeeds: r.merge_when_pipeline_succeeds === 1,
    merge_status: r.merge_status,
    detailed_merge_status: b.detailedMergeStatus,
    sha: r.source_sha ?? '',
    merge_commit_sha: r.merge_commit_sha,
    squash_commit_sha: r.squash_commit_sha,
    discussion_locked: r.discussion_locked === null ? null : r.discussion_locked === 1,
    should_remove_source_branch: r.should_remove_source_branch === null ? null : r.should_remove_source_branch === 1,
    force_remove_source_branch: r.force_remove_source_branch === 1,
    prepared_at: r.prepared_at,
    // api-v4.md lists both on every merge request; as MergeRequest#allow_collaboration, only a fork's can be true.
    allow_collaboration: fork && r.allow_collaboration === 1,
    allow_maintainer_to_push: fork && r.allow_collaboration === 1,
    reference: `!${r.iid}`,
    references: { short: `!${r.iid}`, relative: `!${r.iid}`, full: `${b.projectPath}!${r.iid}` },
    web_url: `${ctx.baseUrl}/${b.projectPath}/-/merge_requests/${r.iid}`,
    time_stats: presentTimeStats(b.timeTracking),
    squash: r.squash === 1,
    squash_on_merge: r.squash === 1,
    task_completion_status: b.tasks,
    has_conflicts: r.merge_status === 'cannot_be_merged',
    blocking_discussions_resolved: b.blockingDiscussionsResolved,
  }
}

export function presentMergeRequest(b: MergeRequestBundle, s: MergeRequestSingle, ctx: Urls): MergeRequest {
  const r = b.row
  // Added to the basic form in place: a spread of its ~55 fields into a new literal cost a fifth of an uncached GET.
  const out = presentMergeRequestBasic(b, ctx) as MergeRequest
  out.subscribed = s.subscribed
  out.changes_count = r.changes_count
  out.latest_build_started_at = null
  out.latest_build_finished_at = null
  out.first_deployed_to_production_at = null
  out.pipeline = s.headPipeline ? presentPipelineBasic(s.headPipeline.row, s.headPipeline.projectPath, ctx) : null
  out.head_pipeline = s.headPipeline ? presentPipeline(s.headPipeline.row, s.headPipeline.projectPath, ctx, s.headPipeline) : null
  out.diff_refs = r.base_sha && r.source_sha && r.target_sha ? { base_sha: r.base_sha, head_sha: r.source_sha, start_sha: r.target_sha } : null
  out.merge_error = r.merge_error
  out.rebase_in_progress = s.rebaseInProgress
  out.diverged_commits_count = s.divergedCommitsCount
  out.first_contribution = s.firstContribution
  out.user = { can_merge: s.canMerge }
  return out
}

export const presentApprovals = (a: { approvers: UserRow[]; userHasApproved: boolean; userCanApprove: boolean }, ctx: Urls): MergeRequestApprovals => ({
  user_has_approved: a.userHasApproved,
  user_can_approve: a.userCanApprove,
  approved: a.approvers.length > 0,
  approved_by: a.approvers.map((u) => ({ user: presentUserBasic(u, ctx) })),
})
