// Resource label, milestone and state events of issues and merge requests: the same two reads for each kind.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentLabelEvent, presentMilestoneEvent, presentStateEvent, type EventResource } from '../present/resource-events.js'
import { findVisibleIssue, today } from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import { eventRelations, findResourceEvent, listResourceEvents, type EventKind, type EventRelations, type EventRows } from '../services/issuables/index.js'
import { target as mergeRequestTarget } from './merge-requests.js'

interface Target { noteableId: number; resource: EventResource }
type Find<I> = (ctx: RequestContext, input: I) => Target

const issueTarget: Find<{ id: string; issue_iid: number }> = (ctx, input) => {
  const project = findVisibleProject(ctx, input.id)
  const issue = findVisibleIssue(ctx, project, input.issue_iid)
  return { noteableId: issue.id, resource: { type: 'Issue', projectPath: `${project.ns_full_path}/${project.path}`, today: today(ctx) } }
}

const mergeRequestOf: Find<{ id: string; merge_request_iid: number }> = (ctx, input) => {
  const { project, mr } = mergeRequestTarget(ctx, input)
  return { noteableId: mr.id, resource: { type: 'MergeRequest', projectPath: `${project.ns_full_path}/${project.path}`, today: today(ctx) } }
}

type Presenter<K extends EventKind> = (e: EventRows[K], rel: EventRelations, r: EventResource, ctx: RequestContext) => unknown
const PRESENT: { [K in EventKind]: Presenter<K> } = { label: presentLabelEvent, milestone: presentMilestoneEvent, state: presentStateEvent }

function handlersFor<K extends EventKind, I>(kind: K, find: Find<I>) {
  const present = PRESENT[kind] as Presenter<K>
  return {
    list: (input: I, ctx: RequestContext) => {
      const t = find(ctx, input)
      const { rows, total } = listResourceEvents(ctx, kind, t.noteableId)
      const rel = eventRelations(ctx, rows)
      return { status: 200, body: rows.map((e) => present(e, rel, t.resource, ctx)), total }
    },
    get: (input: I & { event_id: number }, ctx: RequestContext) => {
      const t = find(ctx, input)
      const event = findResourceEvent(ctx, kind, t.noteableId, input.event_id)
      return { status: 200, body: present(event, eventRelations(ctx, [event]), t.resource, ctx) }
    },
  }
}

const issueLabel = handlersFor('label', issueTarget)
const issueMilestone = handlersFor('milestone', issueTarget)
const issueState = handlersFor('state', issueTarget)
const mrLabel = handlersFor('label', mergeRequestOf)
const mrMilestone = handlersFor('milestone', mergeRequestOf)
const mrState = handlersFor('state', mergeRequestOf)

export const resourceEventHandlers = {
  listIssueResourceLabelEvents: issueLabel.list, getIssueResourceLabelEvent: issueLabel.get,
  listIssueResourceMilestoneEvents: issueMilestone.list, getIssueResourceMilestoneEvent: issueMilestone.get,
  listIssueResourceStateEvents: issueState.list, getIssueResourceStateEvent: issueState.get,
  listMergeRequestResourceLabelEvents: mrLabel.list, getMergeRequestResourceLabelEvent: mrLabel.get,
  listMergeRequestResourceMilestoneEvents: mrMilestone.list, getMergeRequestResourceMilestoneEvent: mrMilestone.get,
  listMergeRequestResourceStateEvents: mrState.list, getMergeRequestResourceStateEvent: mrState.get,
} satisfies Handlers<typeof contract.resourceEvents>
