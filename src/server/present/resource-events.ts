// Resource label, milestone and state events as GitLab's Entities::Resource*Event serialize them.
import type { RequestContext } from '../context.js'
import type { EventRelations } from '../services/issuables/resource-events.js'
import type { LabelEventRow, MilestoneEventRow, StateEventRow } from '../store/resource-events.js'
import { presentMilestone, textColorFor } from './issues.js'
import { presentUserBasic } from './users.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>
/** The issuable the events are about: its kind, and what a milestone's web_url and `expired` need. */
export interface EventResource { type: 'Issue' | 'MergeRequest'; projectPath: string; today: string }

const base = (e: { id: number; user_id: number; created_at: string; noteable_id: number }, rel: EventRelations, r: EventResource, ctx: Urls) => {
  const user = rel.users.get(e.user_id)
  return { id: e.id, user: user ? presentUserBasic(user, ctx) : null, created_at: e.created_at, resource_type: r.type, resource_id: e.noteable_id }
}

export function presentLabelEvent(e: LabelEventRow, rel: EventRelations, r: EventResource, ctx: Urls) {
  const l = e.label_id !== null ? rel.labels.get(e.label_id) : undefined
  return {
    ...base(e, rel, r, ctx),
    label: l ? { id: l.id, name: l.name, color: l.color, description: l.description, description_html: l.description ?? '', text_color: textColorFor(l.color), remove_on_close: false } : null,
    action: e.action,
  }
}

export function presentMilestoneEvent(e: MilestoneEventRow, rel: EventRelations, r: EventResource, ctx: Urls) {
  const m = e.milestone_id !== null ? rel.milestones.get(e.milestone_id) : undefined
  return { ...base(e, rel, r, ctx), milestone: m ? presentMilestone(m, r.projectPath, r.today, ctx) : null, action: e.action, state: e.state }
}

export const presentStateEvent = (e: StateEventRow, rel: EventRelations, r: EventResource, ctx: Urls) =>
  ({ ...base(e, rel, r, ctx), source_commit: e.source_commit, source_merge_request_id: e.source_merge_request_id, state: e.state })
