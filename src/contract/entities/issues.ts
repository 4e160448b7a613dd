// Issue shapes of api-v4.md (§Issue, §Milestone, §time_stats, §Note, §Todo) and the label and milestone shapes of compat-notes §2.
import { z } from 'zod'
import { UserBasic } from './users.js'

const nstr = z.string().nullable()
const int = z.number().int()

export const TimeStats = z.object({
  time_estimate: int,
  total_time_spent: int,
  human_time_estimate: nstr,
  human_total_time_spent: nstr,
})
export type TimeStats = z.infer<typeof TimeStats>

export const Milestone = z.object({
  id: int,
  iid: int,
  /** A project milestone has project_id, a group milestone group_id (Entities::Milestone). */
  project_id: int.optional(),
  group_id: int.optional(),
  title: z.string(),
  description: z.string(),
  state: z.enum(['active', 'closed']),
  created_at: z.string(),
  updated_at: z.string(),
  due_date: nstr,
  start_date: nstr,
  expired: z.boolean(),
  web_url: z.string(),
  /** On single-issue reads only (api-v4.md §Milestone). */
  closed_at: nstr.optional(),
})
export type Milestone = z.infer<typeof Milestone>

export const IssueLinks = z.object({
  self: z.string(),
  notes: z.string(),
  award_emoji: z.string(),
  project: z.string(),
  closed_as_duplicate_of: nstr,
})

/**
 * Entities::IssueBasic: an issue in a list (the three issue lists, a milestone's issues, a merge request's
 * closes_issues, issue links, search).
 */
export const IssueBasic = z.object({
  id: int,
  iid: int,
  project_id: int,
  title: z.string(),
  description: nstr,
  state: z.enum(['opened', 'closed']),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: nstr,
  closed_by: UserBasic.nullable(),
  labels: z.array(z.string()),
  milestone: Milestone.nullable(),
  assignees: z.array(UserBasic),
  author: UserBasic,
  assignee: UserBasic.nullable(),
  user_notes_count: int,
  merge_requests_count: int,
  upvotes: int,
  downvotes: int,
  due_date: nstr,
  confidential: z.boolean(),
  discussion_locked: z.boolean(),
  moved_to_id: int.nullable(),
  web_url: z.string(),
  time_stats: TimeStats,
})
export type IssueBasic = z.infer<typeof IssueBasic>

/** Entities::Issue: one issue read, created, edited, moved or (un)subscribed. */
export const Issue = IssueBasic.extend({
  /** On single read, create, edit, move, subscribe and unsubscribe. */
  subscribed: z.boolean().optional(),
  /** On single read, create, edit, move and subscribe. */
  _links: IssueLinks.optional(),
})
export type Issue = z.infer<typeof Issue>

export const NoteAuthor = UserBasic.extend({ email: z.string(), created_at: z.string() })

/** Where a DiffNote sits: GitLab's Gitlab::Diff::Position#to_h, lines for a text position, a spot for an image one. */
export const NotePosition = z.object({
  base_sha: nstr, start_sha: nstr, head_sha: nstr, old_path: nstr, new_path: nstr, position_type: z.string(),
  old_line: int.nullable().optional(), new_line: int.nullable().optional(), line_range: z.record(z.string(), z.unknown()).nullable().optional(),
  width: int.nullable().optional(), height: int.nullable().optional(), x: int.nullable().optional(), y: int.nullable().optional(),
})
export type NotePosition = z.infer<typeof NotePosition>

export const Note = z.object({
  id: int,
  type: z.enum(['DiscussionNote', 'DiffNote', 'LegacyDiffNote']).nullable(),
  body: z.string(),
  attachment: z.null(),
  author: NoteAuthor,
  created_at: z.string(),
  updated_at: z.string(),
  system: z.boolean(),
  noteable_id: int,
  noteable_type: z.enum(['Issue', 'MergeRequest']),
  noteable_iid: int,
  commit_id: nstr.optional(),
  position: NotePosition.optional(),
  resolvable: z.boolean(),
  resolved: z.boolean().optional(),
  resolved_by: UserBasic.nullable().optional(),
  resolved_at: nstr.optional(),
})
export type Note = z.infer<typeof Note>

/** What a note whose body is only an award emoji (`:thumbsup:`) creates and returns instead of a note. */
export const AwardEmoji = z.object({
  id: int,
  name: z.string(),
  user: UserBasic,
  created_at: z.string(),
  updated_at: z.string(),
  awardable_id: int,
  awardable_type: z.literal('Issue'),
  // A custom emoji's image; GitLab's own (gemoji) names, the only ones collab knows, answer null.
  url: z.string().nullable(),
})
export type AwardEmoji = z.infer<typeof AwardEmoji>

export const TodoProject = z.object({
  id: int,
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
})

export const Todo = z.object({
  id: int,
  project: TodoProject,
  author: UserBasic,
  action_name: z.enum(['marked', 'assigned', 'mentioned']),
  target_type: z.enum(['Issue', 'MergeRequest']),
  target: Issue,
  target_url: z.string(),
  body: z.string(),
  state: z.enum(['pending', 'done']),
  created_at: z.string(),
})

export const UserAgentDetail = z.object({
  user_agent: z.string(),
  ip_address: z.string(),
  spamfilter_submitted: z.boolean(),
})

export const Label = z.object({
  id: int,
  name: z.string(),
  color: z.string(),
  text_color: z.string(),
  description: nstr,
  description_html: z.string(),
  open_issues_count: int,
  closed_issues_count: int,
  open_merge_requests_count: int,
  subscribed: z.boolean(),
  priority: int.nullable(),
  is_project_label: z.boolean(),
})
export type Label = z.infer<typeof Label>
