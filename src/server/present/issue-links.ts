// Issue links as GitLab's Entities::IssueLink and Entities::RelatedIssue serialize them.
import type { RequestContext } from '../context.js'
import type { IssueLinkRow, LinkType } from '../services/issuables/issue-links.js'
import { presentIssue, presentIssueBasic, type IssueBundle } from './issues.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

export const presentIssueLink = (link: IssueLinkRow, source: IssueBundle, target: IssueBundle, ctx: Urls) =>
  ({ source_issue: presentIssueBasic(source, ctx), target_issue: presentIssueBasic(target, ctx), link_type: link.link_type })

/** Entities::RelatedIssue is the full Issue entity without `subscribed` (the API asks include_subscribed: false). */
export const presentRelatedIssue = (b: IssueBundle, link: IssueLinkRow, linkType: LinkType, ctx: Urls) => ({
  ...presentIssue({ ...b, subscribed: undefined, links: true }, ctx),
  issue_link_id: link.id, link_type: linkType, link_created_at: link.created_at, link_updated_at: link.updated_at,
})
