// The Issues API: lists, CRUD, move, subscriptions, todos, time tracking, participants and user agent detail.
import type { contract } from '../../contract/index.js'
import { jsonArray } from '../../core/json-text.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentTimeStats } from '../present/issuables.js'
import { presentIssue } from '../present/issues.js'
import { presentMergeRequestBasic } from '../present/merge-requests.js'
import { presentUserBasic } from '../present/users.js'
import { findVisibleGroup } from '../services/groups/index.js'
import * as actions from '../services/issuables/index.js'
import { issueTexts } from '../services/issuables/index.js'
import { closedBy } from '../services/merge-requests/index.js'
import { bundles as mergeRequestBundles } from '../services/merge-requests/index.js'
import * as issues from '../services/issuables/index.js'
import type { IssueVersion } from '../store/issues.js'
import { findVisibleProject } from '../services/projects/index.js'
import { presentTodoById } from './todos.js'

const target = (ctx: RequestContext, input: { id: string; issue_iid: number }) => {
  const project = findVisibleProject(ctx, input.id)
  return { project, issue: issues.findVisibleIssue(ctx, project, input.issue_iid) }
}

/** A page of issues, joined from each issue's remembered JSON text (see services/issuables/issue-texts.ts). */
export const presentList = (ctx: RequestContext, { items, total }: { items: IssueVersion[]; total: number }) =>
  ({ status: 200, body: jsonArray(issueTexts(ctx, items, (b) => JSON.stringify(presentIssue(b, ctx)))), total })

const one = (ctx: RequestContext, row: issues.IssueRow, status = 200, links = true) => ({ status, body: presentIssue(issues.bundle(ctx, row, links), ctx) })

export const issueHandlers = {
  listIssues: (input, ctx) => presentList(ctx, issues.listIssueVersions(ctx, input, {})),
  listGroupIssues: (input, ctx) => presentList(ctx, issues.listIssueVersions(ctx, input, { groupId: findVisibleGroup(ctx, input.id).id })),
  listProjectIssues: (input, ctx) => presentList(ctx, issues.listIssueVersions(ctx, input, { project: findVisibleProject(ctx, input.id) })),

  getProjectIssue: (input, ctx) => one(ctx, target(ctx, input).issue),

  createProjectIssue: (input, ctx) => one(ctx, issues.createIssue(ctx, findVisibleProject(ctx, input.id), input), 201),

  editProjectIssue: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    return one(ctx, issues.editIssue(ctx, project, issue, input))
  },

  deleteProjectIssue: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    issues.deleteIssue(ctx, project, issue)
    return { status: 204 }
  },

  moveProjectIssue: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    return one(ctx, actions.moveIssue(ctx, project, issue, input.to_project_id), 201)
  },

  subscribeToIssue: (input, ctx) => {
    const { issue } = target(ctx, input)
    actions.setSubscribed(ctx, issue, true)
    return one(ctx, issue, 201)
  },

  // api-v4.md lists `_links` on every single-issue answer except unsubscribe's.
  unsubscribeFromIssue: (input, ctx) => {
    const { issue } = target(ctx, input)
    actions.setSubscribed(ctx, issue, false)
    return one(ctx, issue, 201, false)
  },

  createIssueTodo: (input, ctx) => {
    const { issue } = target(ctx, input)
    return { status: 201, body: presentTodoById(ctx, actions.createTodo(ctx, issue)) }
  },

  setIssueTimeEstimate: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    return { status: 200, body: presentTimeStats(issues.timeTracking(actions.setTimeEstimate(ctx, project, actions.issueNoteable(issue), input.duration))) }
  },

  resetIssueTimeEstimate: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    return { status: 200, body: presentTimeStats(issues.timeTracking(actions.setTimeEstimate(ctx, project, actions.issueNoteable(issue), null))) }
  },

  addIssueSpentTime: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    return { status: 201, body: presentTimeStats(issues.timeTracking(actions.addSpentTime(ctx, project, actions.issueNoteable(issue), input.duration))) }
  },

  resetIssueSpentTime: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    return { status: 200, body: presentTimeStats(issues.timeTracking(actions.addSpentTime(ctx, project, actions.issueNoteable(issue), null))) }
  },

  getIssueTimeStats: (input, ctx) => ({ status: 200, body: presentTimeStats(issues.timeTracking(target(ctx, input).issue)) }),

  listIssueClosedBy: (input, ctx) => {
    const rows = closedBy(ctx, target(ctx, input).issue)
    const page = rows.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit)
    return { status: 200, body: mergeRequestBundles(ctx, page).map((b) => presentMergeRequestBasic(b, ctx)), total: rows.length }
  },

  listIssueParticipants: (input, ctx) => ({ status: 200, body: actions.participants(ctx, target(ctx, input).issue).map((u) => presentUserBasic(u, ctx)) }),

  getIssueUserAgentDetail: (input, ctx) => ({ status: 200, body: actions.userAgentDetail(ctx, target(ctx, input).issue) }),
} satisfies Handlers<typeof contract.issues>
