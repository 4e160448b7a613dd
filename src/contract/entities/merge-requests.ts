// Merge request shapes of api-v4.md §Merge request and compat-mr-ci-wiki.md §1.2: the simple, list (basic) and single
// forms, changes, the MR commit, pipelines, approvals and the small answers of the action endpoints.
import { z } from 'zod'
import { AwardEmoji, IssueBasic, Milestone, TimeStats, Todo } from './issues.js'
import { Commit, DiffEntry } from './repository.js'
import { PipelineBasic } from './pipelines.js'
import { UserBasic } from './users.js'

const nstr = z.string().nullable()
const int = z.number().int()

/** `opened`, `closed`, `locked`, `merged`; old servers show `reopened` after a reopen (api-v4.md §States). */
export const MergeRequestState = z.enum(['opened', 'closed', 'locked', 'merged', 'reopened'])

/** compat-notes §4: every value GitLab's model can hold; a synchronous server reports the two definite ones. */
export const MergeStatus = z.enum([
  'unchecked', 'checking', 'can_be_merged', 'cannot_be_merged', 'cannot_be_merged_recheck', 'cannot_be_merged_rechecking',
])

/** compat-mr-ci-wiki.md §1.6: the CE values, in the order their checks run, plus the states before any check. */
export const DetailedMergeStatus = z.enum([
  'preparing', 'checking', 'unchecked', 'not_open', 'merge_time', 'draft_status', 'commits_status',
  'discussions_not_resolved', 'ci_must_pass', 'ci_still_running', 'locked_lfs_files', 'conflict', 'need_rebase', 'mergeable',
])

/** `view=simple`: exactly these fields (compat-mr-ci-wiki.md §1.2). */
export const MergeRequestSimple = z.object({
  id: int,
  iid: int,
  project_id: int,
  title: z.string(),
  description: nstr,
  state: MergeRequestState,
  created_at: z.string(),
  updated_at: z.string(),
  web_url: z.string(),
})
export type MergeRequestSimple = z.infer<typeof MergeRequestSimple>

export const IssuableReferences = z.object({ short: z.string(), relative: z.string(), full: z.string() })

export const TaskCompletionStatus = z.object({ count: int, completed_count: int })

/** The list form: GitLab 17's MergeRequestBasic (the 11.x fields plus what later clients read, §1.2). */
export const MergeRequestBasic = MergeRequestSimple.extend({
  merged_by: UserBasic.nullable(),
  merge_user: UserBasic.nullable(),
  merged_at: nstr,
  closed_by: UserBasic.nullable(),
  closed_at: nstr,
  /** Only with `render_html=true`. */
  title_html: z.string().optional(),
  description_html: z.string().optional(),
  target_branch: z.string(),
  source_branch: z.string(),
  user_notes_count: int,
  upvotes: int,
  downvotes: int,
  author: UserBasic,
  assignees: z.array(UserBasic),
  /** Deprecated; mirrors the first assignee. */
  assignee: UserBasic.nullable(),
  reviewers: z.array(UserBasic),
  // null once the source project (a fork) is deleted.
  source_project_id: int.nullable(),
  target_project_id: int,
  labels: z.array(z.string()),
  draft: z.boolean(),
  imported: z.boolean(),
  imported_from: z.string(),
  /** Same value as `draft`; the 11.x name. */
  work_in_progress: z.boolean(),
  milestone: Milestone.nullable(),
  merge_when_pipeline_succeeds: z.boolean(),
  merge_status: MergeStatus,
  detailed_merge_status: DetailedMergeStatus,
  /** Head of the source branch. */
  sha: z.string(),
  merge_commit_sha: nstr,
  squash_commit_sha: nstr,
  discussion_locked: z.boolean().nullable(),
  should_remove_source_branch: z.boolean().nullable(),
  force_remove_source_branch: z.boolean(),
  prepared_at: nstr,
  /** True only for a fork's merge request that lets the target's members push to its source branch. */
  allow_collaboration: z.boolean(),
  allow_maintainer_to_push: z.boolean(),
  /** `!5`; deprecated for `references`. */
  reference: z.string(),
  references: IssuableReferences,
  time_stats: TimeStats,
  squash: z.boolean(),
  squash_on_merge: z.boolean(),
  task_completion_status: TaskCompletionStatus,
  /** True exactly when `merge_status` is `cannot_be_merged`. */
  has_conflicts: z.boolean(),
  blocking_discussions_resolved: z.boolean(),
})
export type MergeRequestBasic = z.infer<typeof MergeRequestBasic>

// Moved to entities/pipelines.ts; re-exported for the merge-request endpoints and their callers.
export { PipelineBasic } from './pipelines.js'

/** null while the merge request has no diff yet. */
export const DiffRefs = z.object({ base_sha: z.string(), head_sha: z.string(), start_sha: z.string() })

/** The single form: get, create, update, merge, subscribe, … (compat-mr-ci-wiki.md §1.2 "Single"). */
export const MergeRequest = MergeRequestBasic.extend({
  subscribed: z.boolean(),
  /** A string: `"1000+"` past the diff cap, null before a diff exists (compat-notes §4). */
  changes_count: nstr,
  /** The build fields are left out when the project has builds disabled. */
  latest_build_started_at: nstr.optional(),
  latest_build_finished_at: nstr.optional(),
  first_deployed_to_production_at: nstr.optional(),
  pipeline: PipelineBasic.nullable().optional(),
  /** GitLab's full pipeline entity; shown to callers who may read pipelines. */
  head_pipeline: PipelineBasic.loose().nullable().optional(),
  diff_refs: DiffRefs.nullable(),
  merge_error: nstr,
  /** Only with `include_rebase_in_progress=true`. */
  rebase_in_progress: z.boolean().optional(),
  /** Only with `include_diverged_commits_count=true`: commits on the target that the source lacks. */
  diverged_commits_count: int.optional(),
  /** On the single read. */
  first_contribution: z.boolean().optional(),
  /** glab refuses to merge unless this is present and true (compat-mr-ci-wiki.md §0). */
  user: z.object({ can_merge: z.boolean() }),
})
export type MergeRequest = z.infer<typeof MergeRequest>

/** `…/changes`: the single form plus every changed file; `overflow` says the diff was capped. */
export const MergeRequestChanges = MergeRequest.extend({
  changes: z.array(DiffEntry),
  overflow: z.boolean(),
})
export type MergeRequestChanges = z.infer<typeof MergeRequestChanges>

/**
 * `…/commits`: api-v4.md's reduced commit (seven fields, which win over compat-mr-ci-wiki.md §1.2); GitLab 17 sends
 * its full commit entity, so the other commit fields may come too.
 */
export const MergeRequestCommit = Commit.pick({
  id: true, short_id: true, title: true, author_name: true, author_email: true, created_at: true, message: true,
}).extend(
  Commit.pick({
    parent_ids: true, authored_date: true, committer_name: true, committer_email: true, committed_date: true,
    trailers: true, extended_trailers: true, web_url: true,
  }).partial().shape,
)
export type MergeRequestCommit = z.infer<typeof MergeRequestCommit>

/** An issue of an external tracker in `closes_issues`. */
export const ExternalIssue = z.object({ id: z.string(), title: z.string() })

export const ClosesIssuesEntry = z.union([IssueBasic, ExternalIssue])

export const MergeRequestTodo = Todo.extend({
  action_name: z.enum(['marked', 'assigned', 'mentioned', 'approval_required', 'unmergeable', 'directly_addressed', 'build_failed']),
  target_type: z.literal('MergeRequest'),
  target: MergeRequest,
})

export const MergeRequestAwardEmoji = AwardEmoji.extend({ awardable_type: z.literal('MergeRequest') })
export type MergeRequestAwardEmoji = z.infer<typeof MergeRequestAwardEmoji>


/** `PUT …/rebase` is accepted and runs on; glab then polls the MR with `include_rebase_in_progress`. */
export const RebaseAccepted = z.object({ rebase_in_progress: z.boolean() })

/** GET …/merge_ref: the commit refs/merge-requests/:iid/merge points at. */
export const MergeRefHead = z.object({ commit_id: z.string() })

/** The FOSS approvals answer (compat-mr-ci-wiki.md §1.7). */
export const MergeRequestApprovals = z.object({
  user_has_approved: z.boolean(),
  user_can_approve: z.boolean(),
  approved: z.boolean(),
  approved_by: z.array(z.object({ user: UserBasic })),
})
export type MergeRequestApprovals = z.infer<typeof MergeRequestApprovals>
