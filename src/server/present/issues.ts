// Issues, milestones, labels, notes, award emoji and todos as GitLab serializes them; each object is one literal (see present/projects.ts).
import type { Issue, IssueBasic, Label, Milestone, Note, NotePosition } from '../../contract/entities/issues.js'
import type { MergeRequest } from '../../contract/entities/merge-requests.js'
import type { RequestContext } from '../context.js'
import type { IssueRow } from '../store/issues.js'
import type { LabelCounts, LabelRow } from '../store/labels.js'
import type { MilestoneRow } from '../store/milestones.js'
import type { AwardRow, NoteRow, TodoRow } from '../store/notes.js'
import type { ProjectView } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { presentIssuableHead, presentTimeStats, type IssuableBundle } from './issuables.js'
import { presentUserBasic, userAvatarUrl } from './users.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

export interface IssueBundle extends IssuableBundle<IssueRow> {
  /** Merge requests that close the issue. */
  mergeRequestsCount: number
  /** The single-issue forms: `subscribed`, and `_links` unless the form is unsubscribe's. */
  subscribed?: boolean
  links?: boolean
}

export function presentMilestone(m: MilestoneRow, projectPath: string, today: string, ctx: Urls, withClosedAt = false): Milestone {
  return {
    id: m.id,
    iid: m.iid,
    ...(m.group_id !== null ? { group_id: m.group_id } : { project_id: m.project_id! }),
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.created_at,
    updated_at: m.updated_at,
    due_date: m.due_date,
    start_date: m.start_date,
    expired: m.due_date !== null && m.due_date < today,
    web_url: m.group_path !== null ? `${ctx.baseUrl}/groups/${m.group_path}/-/milestones/${m.iid}` : `${ctx.baseUrl}/${projectPath}/-/milestones/${m.iid}`,
    closed_at: withClosedAt ? m.closed_at : undefined,
  }
}

export function presentIssue(b: IssueBundle, ctx: Urls): Issue {
  const r = b.row
  const self = `${ctx.apiUrl}/projects/${r.project_id}/issues/${r.iid}`
  const assignees = b.assignees.map((u) => presentUserBasic(u, ctx))
  return {
    ...presentIssuableHead(r),
    closed_at: r.closed_at,
    closed_by: b.closedBy ? presentUserBasic(b.closedBy, ctx) : null,
    labels: b.labels,
    milestone: b.milestone ? presentMilestone(b.milestone, b.projectPath, b.today, ctx, b.subscribed !== undefined) : null,
    assignees,
    author: presentUserBasic(b.author, ctx),
    assignee: assignees[0] ?? null,
    user_notes_count: r.user_notes_count,
    merge_requests_count: b.mergeRequestsCount,
    upvotes: b.upvotes,
    downvotes: b.downvotes,
    due_date: r.due_date,
    confidential: r.confidential === 1,
    discussion_locked: r.discussion_locked === 1,
    moved_to_id: r.moved_to_id,
    web_url: `${ctx.baseUrl}/${b.projectPath}/-/issues/${r.iid}`,
    time_stats: presentTimeStats(b.timeTracking),
    subscribed: b.subscribed,
    _links: b.links
      ? { self, notes: `${self}/notes`, award_emoji: `${self}/award_emoji`, project: `${ctx.apiUrl}/projects/${r.project_id}`, closed_as_duplicate_of: null }
      : undefined,
  }
}

/** Entities::IssueBasic: the list form, without `subscribed` and `_links`, whatever the bundle was made for. */
export const presentIssueBasic = (b: IssueBundle, ctx: Urls): IssueBasic => presentIssue({ ...b, subscribed: undefined, links: false }, ctx)

/** GitLab's LabelsHelper#text_color_for_bg: dark text on light backgrounds. */
export function textColorFor(color: string): string {
  const hex = color.replace('#', '')
  const full = hex.length === 3 ? hex.split('').map((c) => c + c).join('') : hex
  if (!/^[0-9a-f]{6}$/i.test(full)) return '#FFFFFF'
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16))
  return r + g + b > 500 ? '#333333' : '#FFFFFF'
}

export const presentLabel = (l: LabelRow, counts: LabelCounts, subscribed: boolean): Label => ({
  id: l.id,
  name: l.name,
  color: l.color,
  text_color: textColorFor(l.color),
  description: l.description,
  description_html: l.description ?? '',
  open_issues_count: counts.open_issues_count,
  closed_issues_count: counts.closed_issues_count,
  open_merge_requests_count: counts.open_merge_requests_count,
  subscribed,
  priority: l.priority,
  is_project_label: l.project_id !== null,
})

/** Note classes that resolve, on the kind that resolves (GitLab's ResolvableNote#resolvable?). */
const resolvable = (n: NoteRow, kind: string) => kind === 'MergeRequest' && n.system === 0 && (n.type === 'DiscussionNote' || n.type === 'DiffNote')

export function presentNote(n: NoteRow, author: UserRow, issue: Pick<IssueRow, 'id' | 'iid'>, ctx: Urls, type: 'Issue' | 'MergeRequest' = 'Issue', resolvedBy: UserRow | null = null): Note {
  const out: Note = {
    id: n.id,
    type: n.type,
    body: n.body,
    attachment: null,
    author: {
      id: author.id,
      username: author.username,
      name: author.name,
      state: author.state,
      avatar_url: userAvatarUrl(author, ctx),
      web_url: `${ctx.baseUrl}/${author.username}`,
      email: author.email,
      created_at: author.created_at,
    },
    created_at: n.created_at,
    updated_at: n.updated_at,
    system: n.system === 1,
    noteable_id: issue.id,
    noteable_type: type,
    noteable_iid: issue.iid,
    resolvable: resolvable(n, type),
  }
  if (n.type === 'DiffNote') {
    if (type === 'MergeRequest') out.commit_id = null
    out.position = JSON.parse(n.position!) as NotePosition
  }
  if (out.resolvable) {
    out.resolved = n.resolved_at !== null
    out.resolved_by = resolvedBy ? presentUserBasic(resolvedBy, ctx) : null
    out.resolved_at = n.resolved_at
  }
  return out
}

export const presentAward = <T extends 'Issue' | 'MergeRequest' = 'Issue'>(a: AwardRow, user: UserRow, ctx: Urls, type: T = 'Issue' as T) => ({
  id: a.id,
  name: a.name,
  user: presentUserBasic(user, ctx),
  created_at: a.created_at,
  updated_at: a.updated_at,
  awardable_id: a.noteable_id,
  awardable_type: type,
  url: null,
})

export const presentTodo = (t: TodoRow, project: ProjectView, author: UserRow, target: Issue | MergeRequest, ctx: Urls, type: 'Issue' | 'MergeRequest' = 'Issue') => ({
  id: t.id,
  project: {
    id: project.id,
    name: project.name,
    name_with_namespace: `${project.ns_full_name} / ${project.name}`,
    path: project.path,
    path_with_namespace: `${project.ns_full_path}/${project.path}`,
  },
  author: presentUserBasic(author, ctx),
  action_name: t.action_name,
  target_type: type,
  target,
  target_url: target.web_url,
  body: t.body,
  state: t.state,
  created_at: t.created_at,
})
