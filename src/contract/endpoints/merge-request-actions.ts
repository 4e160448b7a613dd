// What one does to a merge request besides editing it: merge, cancel auto-merge, rebase, subscriptions, todo,
// time tracking and approvals (api-v4.md §Merge requests, compat-mr-ci-wiki.md §1.4–§1.7).
import { defineEndpoint } from '../define.js'
import { TimeStats } from '../entities/issues.js'
import { MergeRefHead, MergeRequest, MergeRequestApprovals, MergeRequestTodo, RebaseAccepted } from '../entities/merge-requests.js'
import { bool, str, text } from '../params.js'
import { MergeRequestIid } from './merge-requests.js'

export const mergeMergeRequest = defineEndpoint({
  method: 'PUT', path: '/projects/:id/merge_requests/:merge_request_iid/merge', summary: 'Merge a merge request, or set it to merge when the pipeline succeeds',
  params: MergeRequestIid,
  input: {
    merge_commit_message: text().optional(),
    squash_commit_message: text().optional(),
    /** Saved on the merge request before merging. */
    squash: bool().optional(),
    should_remove_source_branch: bool().optional(),
    merge_when_pipeline_succeeds: bool().optional(),
    /** GitLab 17's name for `merge_when_pipeline_succeeds`; glab sends it. */
    auto_merge: bool().optional(),
    /** Must equal the head of the source branch (409 otherwise). */
    sha: str(64).optional(),
  },
  responses: { 200: MergeRequest },
})

export const getMergeRequestMergeRef = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/merge_requests/:merge_request_iid/merge_ref',
  summary: 'Merge the source into refs/merge-requests/:iid/merge (the target as a merge would leave it) and answer its commit; 400 when it cannot be merged',
  params: MergeRequestIid, responses: { 200: MergeRefHead },
})

export const cancelMergeWhenPipelineSucceeds = defineEndpoint({
  method: 'PUT', path: '/projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds', summary: 'Cancel merge when pipeline succeeds (405 when merged or closed, 406 when not set)',
  params: MergeRequestIid, responses: { 200: MergeRequest },
})

export const postCancelMergeWhenPipelineSucceeds = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds', summary: "Cancel merge when pipeline succeeds (python-gitlab's verb; answers as the PUT form)",
  params: MergeRequestIid, responses: { 201: MergeRequest },
})

export const rebaseMergeRequest = defineEndpoint({
  method: 'PUT', path: '/projects/:id/merge_requests/:merge_request_iid/rebase', summary: 'Rebase the source branch onto the target branch',
  params: MergeRequestIid, input: { skip_ci: bool().optional() }, responses: { 202: RebaseAccepted },
})

export const subscribeToMergeRequest = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/subscribe', summary: 'Subscribe to a merge request (304 when subscribed)',
  params: MergeRequestIid, responses: { 201: MergeRequest, 304: null },
})

export const unsubscribeFromMergeRequest = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/unsubscribe', summary: 'Unsubscribe from a merge request (304 when not subscribed)',
  params: MergeRequestIid, responses: { 201: MergeRequest, 304: null },
})

export const createMergeRequestTodo = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/todo', summary: 'Create a todo on a merge request (304 when one is pending)',
  params: MergeRequestIid, responses: { 201: MergeRequestTodo, 304: null },
})

export const setMergeRequestTimeEstimate = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/time_estimate', summary: 'Set the time estimate of a merge request (`3h30m`)',
  params: MergeRequestIid, input: { duration: str() }, responses: { 200: TimeStats },
})

export const resetMergeRequestTimeEstimate = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/reset_time_estimate', summary: 'Reset the time estimate of a merge request to 0',
  params: MergeRequestIid, responses: { 200: TimeStats },
})

export const addMergeRequestSpentTime = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/add_spent_time', summary: 'Add spent time to a merge request (negative subtracts)',
  params: MergeRequestIid, input: { duration: str(), summary: str().optional() }, responses: { 201: TimeStats },
})

export const resetMergeRequestSpentTime = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/reset_spent_time', summary: 'Reset the time spent on a merge request to 0',
  params: MergeRequestIid, responses: { 200: TimeStats },
})

export const getMergeRequestTimeStats = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/merge_requests/:merge_request_iid/time_stats', summary: 'Time tracking stats of a merge request',
  params: MergeRequestIid, responses: { 200: TimeStats },
})

export const getMergeRequestApprovals = defineEndpoint({
  method: 'GET', path: '/projects/:id/merge_requests/:merge_request_iid/approvals', summary: 'Approval state of a merge request',
  params: MergeRequestIid, responses: { 200: MergeRequestApprovals },
})

export const approveMergeRequest = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/approve', summary: 'Approve a merge request (`sha` must be the source head)',
  params: MergeRequestIid, input: { sha: str(64).optional() }, responses: { 201: MergeRequestApprovals },
})

export const unapproveMergeRequest = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/unapprove', summary: "Withdraw the caller's approval of a merge request",
  params: MergeRequestIid, responses: { 201: MergeRequestApprovals },
})

export const resetMergeRequestApprovals = defineEndpoint({
  method: 'PUT', path: '/projects/:id/merge_requests/:merge_request_iid/reset_approvals', summary: 'Clear every approval of a merge request',
  params: MergeRequestIid, responses: { 202: null },
})
