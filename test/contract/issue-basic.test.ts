// Entities::IssueBasic and Entities::Issue: where GitLab answers the basic form, the contract declares IssueBasic, and
// Issue is IssueBasic with the single read's `subscribed` and `_links`.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import * as groupMilestones from '../../src/contract/endpoints/group-milestones.js'
import * as issueLinks from '../../src/contract/endpoints/issue-links.js'
import * as issues from '../../src/contract/endpoints/issues.js'
import * as mrs from '../../src/contract/endpoints/merge-requests.js'
import * as milestones from '../../src/contract/endpoints/milestones.js'
import * as search from '../../src/contract/endpoints/search.js'
import { Issue, IssueBasic } from '../../src/contract/entities/issues.js'

/** The schemas a response may be: an array's element, each member of a union. */
function shapes(schema: z.ZodType): z.ZodType[] {
  if (schema instanceof z.ZodArray) return shapes(schema.element as z.ZodType)
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap(shapes)
  return [schema]
}

describe('IssueBasic', () => {
  it.each([
    ['GET /issues', issues.listIssues],
    ['GET /groups/:id/issues', issues.listGroupIssues],
    ['GET /projects/:id/issues', issues.listProjectIssues],
    ['GET /projects/:id/milestones/:milestone_id/issues', Object.values(milestones).find((e: any) => e?.path === '/projects/:id/milestones/:milestone_id/issues')],
    ['GET /groups/:id/milestones/:milestone_id/issues', Object.values(groupMilestones).find((e: any) => e?.path === '/groups/:id/milestones/:milestone_id/issues')],
    ['GET /projects/:id/merge_requests/:merge_request_iid/closes_issues', Object.values(mrs).find((e: any) => e?.path?.endsWith('/closes_issues'))],
  ])('is what %s answers', (_name, endpoint: any) => {
    expect(endpoint).toBeDefined()
    const answers = shapes(endpoint.responses[200])
    expect(answers).toContain(IssueBasic)
    expect(answers).not.toContain(Issue)
  })

  it('is both issues of an issue link, and one of what a search answers', () => {
    expect([issueLinks.IssueLink.shape.source_issue, issueLinks.IssueLink.shape.target_issue]).toEqual([IssueBasic, IssueBasic])
    const searches = Object.values(search).filter((e: any) => e?.method === 'GET').flatMap((e: any) => shapes(e.responses[200]))
    expect(searches).toContain(IssueBasic)
    expect(searches).not.toContain(Issue)
  })

  it('is Issue without subscribed and _links', () => {
    expect(Object.keys(Issue.shape)).toEqual([...Object.keys(IssueBasic.shape), 'subscribed', '_links'])
    const single = { subscribed: true }
    expect(IssueBasic.strict().safeParse(single).success).toBe(false)
  })
})
