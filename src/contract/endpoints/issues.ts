// The Issues API of api-v4.md §Issues: three lists, CRUD, move, subscriptions, todos, time tracking, participants.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Issue, IssueBasic, TimeStats, Todo, UserAgentDetail } from '../entities/issues.js'
import { MergeRequestRef } from '../entities/merge-request-ref.js'
import { UserBasic } from '../entities/users.js'
import { bool, dateOnly, int, isoDate, list, oneOf, ref, str, text } from '../params.js'

const Id = { id: ref() }
const IssueIid = { id: ref(), issue_iid: int() }

/** `''` or null clears a date; anything else must be a real YYYY-MM-DD day. */
export const clearableDate = () => z.preprocess((v) => (v === null ? '' : v), z.union([z.literal(''), dateOnly()], { error: 'is invalid' }))
/** `milestone_id=0`, `''` or null unassigns. */
export const clearableId = () => z.preprocess((v) => (v === '' || v === null ? 0 : v), int())
/** `assignee_ids[]=` arrives as `['']`; empty entries mean "nobody". */
export const idList = () => z.preprocess((v) => (Array.isArray(v) ? v.filter((x) => x !== '' && x !== null) : v === null ? [] : v), list(int()))
/** `assignee_id` filter: a user id, or `None`/`Any`. */
export const userFilter = () => z.union([int(), z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['none', 'any']))], { error: 'is invalid' })

export const IssueListFilters = {
  state: oneOf(['opened', 'closed', 'all']).optional(),
  labels: list(str()).optional(),
  milestone: str().optional(),
  iids: idList().optional(),
  scope: oneOf(['created_by_me', 'assigned_to_me', 'all', 'created-by-me', 'assigned-to-me']).optional(),
  author_id: int().optional(),
  assignee_id: userFilter().optional(),
  my_reaction_emoji: str().optional(),
  order_by: oneOf(['created_at', 'updated_at']).optional(),
  sort: oneOf(['asc', 'desc']).optional(),
  search: str().optional(),
  confidential: bool().optional(),
  created_after: isoDate().optional(),
  created_before: isoDate().optional(),
  updated_after: isoDate().optional(),
  updated_before: isoDate().optional(),
}
export type IssueListInput = { [K in keyof typeof IssueListFilters]?: z.output<(typeof IssueListFilters)[K]> }

const CreateInput = {
  title: str(),
  description: text().optional(),
  confidential: bool().optional(),
  assignee_ids: idList().optional(),
  assignee_id: clearableId().optional(),
  milestone_id: clearableId().optional(),
  labels: list(str()).optional(),
  created_at: isoDate().optional(),
  due_date: clearableDate().optional(),
  iid: int().optional(),
  merge_request_to_resolve_discussions_of: int().optional(),
  discussion_to_resolve: str().optional(),
}
export type CreateIssueInput = { [K in keyof typeof CreateInput]?: z.output<(typeof CreateInput)[K]> } & { title: string }

const EditInput = {
  title: str().optional(),
  description: text().optional(),
  confidential: bool().optional(),
  assignee_ids: idList().optional(),
  assignee_id: clearableId().optional(),
  milestone_id: clearableId().optional(),
  labels: list(str()).optional(),
  add_labels: list(str()).optional(),
  remove_labels: list(str()).optional(),
  state_event: oneOf(['close', 'reopen']).optional(),
  updated_at: isoDate().optional(),
  due_date: clearableDate().optional(),
  discussion_locked: bool().optional(),
}
export type EditIssueInput = { [K in keyof typeof EditInput]?: z.output<(typeof EditInput)[K]> }

export const listIssues = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/issues', summary: 'List issues the caller can see (scope created_by_me by default)', paginated: true, cacheable: true,
  input: IssueListFilters, responses: { 200: z.array(IssueBasic) },
})

export const listGroupIssues = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/groups/:id/issues', summary: "List issues of a group's projects", paginated: true, cacheable: true,
  params: Id, input: IssueListFilters, responses: { 200: z.array(IssueBasic) },
})

export const listProjectIssues = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/issues', summary: 'List issues of a project', paginated: true, cacheable: true,
  params: Id, input: IssueListFilters, responses: { 200: z.array(IssueBasic) },
})

export const getProjectIssue = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/issues/:issue_iid', summary: 'Get a single issue', cacheable: true,
  params: IssueIid, responses: { 200: Issue },
})

export const createProjectIssue = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues', summary: 'Create an issue',
  params: Id, input: CreateInput, responses: { 201: Issue },
})

export const editProjectIssue = defineEndpoint({
  method: 'PUT', path: '/projects/:id/issues/:issue_iid', summary: 'Edit an issue, close or reopen it',
  params: IssueIid, input: EditInput, responses: { 200: Issue },
  // IssuesHelpers.update_params_at_least_one_of
  atLeastOneOf: [
    'assignee_id', 'assignee_ids', 'confidential', 'created_at', 'description', 'discussion_locked', 'due_date', 'labels',
    'add_labels', 'remove_labels', 'milestone_id', 'state_event', 'title', 'issue_type',
  ],
})

export const deleteProjectIssue = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/issues/:issue_iid', summary: 'Delete an issue (administrators and project owners)',
  params: IssueIid, responses: { 204: null },
})

export const moveProjectIssue = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/move', summary: 'Move an issue to another project',
  params: IssueIid, input: { to_project_id: int() }, responses: { 201: Issue },
})

export const subscribeToIssue = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/subscribe', summary: 'Subscribe to an issue (304 when subscribed)',
  params: IssueIid, responses: { 201: Issue, 304: null },
})

export const unsubscribeFromIssue = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/unsubscribe', summary: 'Unsubscribe from an issue (304 when not subscribed)',
  params: IssueIid, responses: { 201: Issue, 304: null },
})

export const createIssueTodo = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/todo', summary: 'Create a todo on an issue (304 when one is pending)',
  params: IssueIid, responses: { 201: Todo, 304: null },
})

export const setIssueTimeEstimate = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/time_estimate', summary: 'Set the time estimate of an issue (`3h30m`)',
  params: IssueIid, input: { duration: str() }, responses: { 200: TimeStats },
})

export const resetIssueTimeEstimate = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/reset_time_estimate', summary: 'Reset the time estimate of an issue to 0',
  params: IssueIid, responses: { 200: TimeStats },
})

export const addIssueSpentTime = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/add_spent_time', summary: 'Add spent time to an issue (negative subtracts)',
  params: IssueIid, input: { duration: str(), summary: str().optional() }, responses: { 201: TimeStats },
})

export const resetIssueSpentTime = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/reset_spent_time', summary: 'Reset the time spent on an issue to 0',
  params: IssueIid, responses: { 200: TimeStats },
})

export const getIssueTimeStats = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/issues/:issue_iid/time_stats', summary: 'Time tracking stats of an issue',
  params: IssueIid, responses: { 200: TimeStats },
})

export const listIssueClosedBy = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/issues/:issue_iid/closed_by', summary: 'Merge requests that close the issue when merged', paginated: true,
  params: IssueIid, responses: { 200: z.array(MergeRequestRef) },
})

export const listIssueParticipants = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/issues/:issue_iid/participants', summary: 'Participants of an issue: author, assignees, commenters',
  params: IssueIid, responses: { 200: z.array(UserBasic) },
})

export const getIssueUserAgentDetail = defineEndpoint({
  method: 'GET', path: '/projects/:id/issues/:issue_iid/user_agent_detail', summary: 'User agent and IP that created an issue (administrators)',
  auth: 'admin', params: IssueIid, responses: { 200: UserAgentDetail },
})
