// What one does to a merge request besides editing it: merge, cancel auto-merge, rebase, subscriptions, todo, time
// tracking and approvals.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentTimeStats } from '../present/issuables.js'
import { presentApprovals } from '../present/merge-requests.js'
import * as discussion from '../services/issuables/index.js'
import * as approvals from '../services/merge-requests/index.js'
import { timeTracking } from '../services/issuables/index.js'
import { cancelAutoMerge, mergeMergeRequest, rebaseMergeRequest } from '../services/merge-requests/index.js'
import { mergeRefOf } from '../services/merge-requests/index.js'
import { one, target } from './merge-requests.js'
import { presentTodoById } from './todos.js'

export const mergeRequestActionHandlers = {
  mergeMergeRequest: async (input, ctx) => {
    const { project, mr } = target(ctx, input)
    return one(ctx, await mergeMergeRequest(ctx, project, mr, input))
  },

  getMergeRequestMergeRef: async (input, ctx) => {
    const { mr } = target(ctx, input)
    return { status: 200, body: { commit_id: await mergeRefOf(ctx.app, mr) } }
  },

  cancelMergeWhenPipelineSucceeds: (input, ctx) => {
    const { project, mr } = target(ctx, input)
    return one(ctx, cancelAutoMerge(ctx, project, mr))
  },

  postCancelMergeWhenPipelineSucceeds: (input, ctx) => {
    const { project, mr } = target(ctx, input)
    return one(ctx, cancelAutoMerge(ctx, project, mr), 201)
  },

  rebaseMergeRequest: async (input, ctx) => {
    const { project, mr } = target(ctx, input)
    await rebaseMergeRequest(ctx, project, mr)
    return { status: 202, body: { rebase_in_progress: true } }
  },

  subscribeToMergeRequest: (input, ctx) => {
    const { mr } = target(ctx, input)
    discussion.setSubscribed(ctx, mr, true)
    return one(ctx, mr, 201)
  },

  unsubscribeFromMergeRequest: (input, ctx) => {
    const { mr } = target(ctx, input)
    discussion.setSubscribed(ctx, mr, false)
    return one(ctx, mr, 201)
  },

  createMergeRequestTodo: (input, ctx) => {
    const { mr } = target(ctx, input)
    return { status: 201, body: presentTodoById(ctx, discussion.createTodo(ctx, mr)) }
  },

  setMergeRequestTimeEstimate: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    return { status: 200, body: presentTimeStats(timeTracking(discussion.setTimeEstimate(ctx, project, noteable, input.duration))) }
  },

  resetMergeRequestTimeEstimate: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    return { status: 200, body: presentTimeStats(timeTracking(discussion.setTimeEstimate(ctx, project, noteable, null))) }
  },

  addMergeRequestSpentTime: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    return { status: 201, body: presentTimeStats(timeTracking(discussion.addSpentTime(ctx, project, noteable, input.duration))) }
  },

  resetMergeRequestSpentTime: (input, ctx) => {
    const { project, noteable } = target(ctx, input)
    return { status: 200, body: presentTimeStats(timeTracking(discussion.addSpentTime(ctx, project, noteable, null))) }
  },

  getMergeRequestTimeStats: (input, ctx) => ({ status: 200, body: presentTimeStats(timeTracking(target(ctx, input).mr)) }),

  getMergeRequestApprovals: (input, ctx) => {
    const { project, mr } = target(ctx, input)
    return { status: 200, body: presentApprovals(approvals.approvalsOf(ctx, project, mr), ctx) }
  },

  approveMergeRequest: (input, ctx) => {
    const { project, mr } = target(ctx, input)
    return { status: 201, body: presentApprovals(approvals.approve(ctx, project, mr, input.sha), ctx) }
  },

  unapproveMergeRequest: (input, ctx) => {
    const { project, mr } = target(ctx, input)
    return { status: 201, body: presentApprovals(approvals.unapprove(ctx, project, mr), ctx) }
  },

  resetMergeRequestApprovals: (input, ctx) => {
    const { project, mr } = target(ctx, input)
    approvals.resetApprovals(ctx, project, mr)
    return { status: 202 }
  },
} satisfies Handlers<typeof contract.mergeRequestActions>
