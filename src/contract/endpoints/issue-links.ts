// Issue links (lib/api/issue_links.rb) and an issue's related merge requests (lib/api/issues.rb).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Issue, IssueBasic } from '../entities/issues.js'
import { MergeRequest } from '../entities/merge-requests.js'
import { int, oneOf, ref } from '../params.js'

export const IssueLinkType = z.enum(['relates_to', 'blocks', 'is_blocked_by'])
/** Entities::IssueLink: both ends in the basic form, the link as stored. */
export const IssueLink = z.object({ source_issue: IssueBasic, target_issue: IssueBasic, link_type: z.enum(['relates_to', 'blocks']) })
/** Entities::RelatedIssue: the linked issue with its link, seen from the listed issue. */
export const RelatedIssue = Issue.extend({ issue_link_id: z.number().int(), link_type: IssueLinkType, link_created_at: z.string(), link_updated_at: z.string() })

const IssueIid = { id: ref(), issue_iid: int() }
const OneLink = { ...IssueIid, issue_link_id: int() }

export const listIssueLinks = defineEndpoint({
  method: 'GET', path: '/projects/:id/issues/:issue_iid/links', summary: "List an issue's linked issues, oldest link first",
  params: IssueIid, responses: { 200: z.array(RelatedIssue) },
})

export const getIssueLink = defineEndpoint({
  method: 'GET', path: '/projects/:id/issues/:issue_iid/links/:issue_link_id', summary: 'Get an issue link',
  params: OneLink, responses: { 200: IssueLink },
})

export const createIssueLink = defineEndpoint({
  method: 'POST', path: '/projects/:id/issues/:issue_iid/links', summary: 'Link an issue to another (relates_to, blocks, is_blocked_by)',
  params: IssueIid, input: { target_project_id: ref(), target_issue_iid: int(), link_type: oneOf(['relates_to', 'blocks', 'is_blocked_by']).optional() },
  responses: { 201: IssueLink },
})

export const deleteIssueLink = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/issues/:issue_iid/links/:issue_link_id', summary: 'Remove an issue link (both directions)',
  params: OneLink, responses: { 200: IssueLink },
})

export const listIssueRelatedMergeRequests = defineEndpoint({
  method: 'GET', path: '/projects/:id/issues/:issue_iid/related_merge_requests', summary: 'Merge requests that mention or close an issue',
  auth: 'optional', paginated: true, params: IssueIid, responses: { 200: z.array(MergeRequest.omit({ subscribed: true })) },
})
