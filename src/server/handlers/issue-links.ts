// Issue links and an issue's related merge requests.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentIssueLink, presentRelatedIssue } from '../present/issue-links.js'
import * as links from '../services/issuables/index.js'
import { bundles, findVisibleIssue } from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import { presentSingle } from './merge-requests.js'

const target = (ctx: RequestContext, input: { id: string; issue_iid: number }) => {
  const project = findVisibleProject(ctx, input.id)
  return { project, issue: findVisibleIssue(ctx, project, input.issue_iid) }
}

const presentLink = (ctx: RequestContext, found: { link: links.IssueLinkRow; source: links.RelatedIssue['issue']; target: links.RelatedIssue['issue'] }) => {
  const [source, dest] = bundles(ctx, [found.source, found.target])
  return presentIssueLink(found.link, source, dest, ctx)
}

export const issueLinkHandlers = {
  listIssueLinks: (input, ctx) => {
    const related = links.relatedIssues(ctx, target(ctx, input).issue)
    const issueBundles = bundles(ctx, related.map((r) => r.issue))
    return { status: 200, body: related.map((r, i) => presentRelatedIssue(issueBundles[i], r.link, r.linkType, ctx)) }
  },

  getIssueLink: (input, ctx) => ({ status: 200, body: presentLink(ctx, links.findIssueLink(ctx, target(ctx, input).issue, input.issue_link_id)) }),

  createIssueLink: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    return { status: 201, body: presentLink(ctx, links.createIssueLink(ctx, project, issue, input)) }
  },

  deleteIssueLink: (input, ctx) => {
    const found = links.findIssueLink(ctx, target(ctx, input).issue, input.issue_link_id)
    links.deleteIssueLink(ctx, found)
    return { status: 200, body: presentLink(ctx, found) }
  },

  listIssueRelatedMergeRequests: (input, ctx) => {
    const { project, issue } = target(ctx, input)
    const rows = links.relatedMergeRequests(ctx, project, issue)
    const page = rows.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit)
    // Entities::MergeRequest with include_subscribed: false.
    const body = page.map((mr) => {
      const { subscribed: _, ...rest } = presentSingle(ctx, mr)
      return rest
    })
    return { status: 200, body, total: rows.length }
  },
} satisfies Handlers<typeof contract.issueLinks>
