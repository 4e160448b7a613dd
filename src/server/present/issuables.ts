// What the issue and merge request presenters share: the bundle of a row and what it links to, the fields both
// entities open with (in GitLab's order), and time_stats. present/issues.ts and merge-requests.ts add each kind's own.
import type { TimeStats } from '../../contract/entities/issues.js'
import type { MilestoneRow } from '../store/milestones.js'
import type { UserRow } from '../store/users.js'

export interface IssuableBundle<R> {
  row: R
  /** `namespace/project` of the (target) project. */
  projectPath: string
  author: UserRow
  assignees: UserRow[]
  closedBy: UserRow | null
  labels: string[]
  milestone: MilestoneRow | null
  upvotes: number
  downvotes: number
  timeTracking: TimeTracking
  /** Today as YYYY-MM-DD, for the milestone's `expired`. */
  today: string
}

/** Time tracking in seconds, with GitLab's human forms (`1h 30m`) as the time-tracking rules spell them. */
export interface TimeTracking { estimate: number; spent: number; humanEstimate: string | null; humanSpent: string | null }

export const presentTimeStats = (t: TimeTracking): TimeStats => ({
  time_estimate: t.estimate,
  total_time_spent: t.spent,
  human_time_estimate: t.humanEstimate,
  human_total_time_spent: t.humanSpent,
})

interface HeadRow<S> { id: number; iid: number; project_id: number; title: string; description: string | null; state: S; created_at: string; updated_at: string }

/** The fields Issue, MergeRequestBasic and MergeRequestSimple open with. */
export const presentIssuableHead = <S>(r: HeadRow<S>) => ({
  id: r.id,
  iid: r.iid,
  project_id: r.project_id,
  title: r.title,
  description: r.description,
  state: r.state,
  created_at: r.created_at,
  updated_at: r.updated_at,
})
