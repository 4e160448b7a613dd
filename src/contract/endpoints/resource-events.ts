// Resource label, milestone and state events of issues and merge requests (lib/api/resource_*_events.rb).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Milestone } from '../entities/issues.js'
import { UserBasic } from '../entities/users.js'
import { int, ref } from '../params.js'

const nstr = z.string().nullable()
const EventBase = z.object({
  id: z.number().int(), user: UserBasic.nullable(), created_at: z.string(), resource_type: z.enum(['Issue', 'MergeRequest']), resource_id: z.number().int(),
})
export const EventLabel = z.object({ id: z.number().int(), name: z.string(), color: z.string(), description: nstr, description_html: z.string(), text_color: z.string(), remove_on_close: z.boolean() })
export const ResourceLabelEvent = EventBase.extend({ label: EventLabel.nullable(), action: z.enum(['add', 'remove']) })
export const ResourceMilestoneEvent = EventBase.extend({ milestone: Milestone.nullable(), action: z.enum(['add', 'remove']), state: z.string() })
export const ResourceStateEvent = EventBase.extend({ source_commit: nstr, source_merge_request_id: z.number().int().nullable(), state: z.string() })

type Shape = z.core.$ZodLooseShape

/** The list and the single read of one kind of event on one kind of issuable. */
function eventEndpoints<P extends Shape, E extends z.ZodType>(base: string, params: P, kind: string, of: string, entity: E) {
  const path = `/projects/:id/${base}/resource_${kind}_events`
  return {
    list: defineEndpoint({ method: 'GET', path, summary: `List the ${kind} events of ${of}`, paginated: true, params, responses: { 200: z.array(entity) } }),
    get: defineEndpoint({ method: 'GET', path: `${path}/:event_id`, summary: `Get one ${kind} event of ${of}`, params: { ...params, event_id: int() }, responses: { 200: entity } }),
  }
}

const IssueIid = { id: ref(), issue_iid: int() }
const MergeRequestIid = { id: ref(), merge_request_iid: int() }
const issueLabel = eventEndpoints('issues/:issue_iid', IssueIid, 'label', 'an issue', ResourceLabelEvent)
const issueMilestone = eventEndpoints('issues/:issue_iid', IssueIid, 'milestone', 'an issue', ResourceMilestoneEvent)
const issueState = eventEndpoints('issues/:issue_iid', IssueIid, 'state', 'an issue', ResourceStateEvent)
const mrLabel = eventEndpoints('merge_requests/:merge_request_iid', MergeRequestIid, 'label', 'a merge request', ResourceLabelEvent)
const mrMilestone = eventEndpoints('merge_requests/:merge_request_iid', MergeRequestIid, 'milestone', 'a merge request', ResourceMilestoneEvent)
const mrState = eventEndpoints('merge_requests/:merge_request_iid', MergeRequestIid, 'state', 'a merge request', ResourceStateEvent)

export const listIssueResourceLabelEvents = issueLabel.list
export const getIssueResourceLabelEvent = issueLabel.get
export const listIssueResourceMilestoneEvents = issueMilestone.list
export const getIssueResourceMilestoneEvent = issueMilestone.get
export const listIssueResourceStateEvents = issueState.list
export const getIssueResourceStateEvent = issueState.get
export const listMergeRequestResourceLabelEvents = mrLabel.list
export const getMergeRequestResourceLabelEvent = mrLabel.get
export const listMergeRequestResourceMilestoneEvents = mrMilestone.list
export const getMergeRequestResourceMilestoneEvent = mrMilestone.get
export const listMergeRequestResourceStateEvents = mrState.list
export const getMergeRequestResourceStateEvent = mrState.get
