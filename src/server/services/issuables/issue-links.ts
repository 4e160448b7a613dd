// Issue links (GitLab's IssueLinks::CreateService and DestroyService, with EE's blocks / is_blocked_by): two-way
// relations between issues the caller may see, with system notes on both sides, and an issue's related merge requests.
import { CollabError, type ErrorCode } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canReadCode, canReadIssue, canReadProject, effectiveProjectLevel, GUEST } from '../../policy.js'
import { transaction } from '../../store/db.js'
import { assigneeIdsOf, findIssueById, type IssueRow } from '../../store/issues.js'
import * as store from '../../store/issue-links.js'
import type { MergeRequestRow } from '../../store/merge-requests.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { addSystemNote } from './discussion.js'
import { issueReferencesIn, refersTo } from './issue-references.js'
import { findVisibleIssue } from './issues.js'
import { findVisibleProject } from '../projects/projects.js'

export type { IssueLinkRow } from '../../store/issue-links.js'
export type LinkType = 'relates_to' | 'blocks' | 'is_blocked_by'

/** IssuableLink::MAX_LINKS_COUNT. */
const MAX_LINKS = 100

const apiError = (code: ErrorCode, status: number, message: string) => new CollabError(code, message, { status })

/** `#N` in its own project, `path#N` in the same namespace, `full/path#N` elsewhere (Issue#to_reference). */
export function issueReference(issue: Pick<IssueRow, 'iid' | 'project_id'>, issueProject: ProjectView, from: ProjectView): string {
  if (issue.project_id === from.id) return `#${issue.iid}`
  const path = issueProject.namespace_id === from.namespace_id ? issueProject.path : `${issueProject.ns_full_path}/${issueProject.path}`
  return `${path}#${issue.iid}`
}

const readable = (ctx: RequestContext, issue: IssueRow) => {
  const project = findProjectById(ctx.app.db, issue.project_id)
  return project !== undefined && canReadProject(ctx, project)
    && canReadIssue(ctx, project, issue, assigneeIdsOf(ctx.app.db, [issue.id]).get(issue.id) ?? []) ? project : undefined
}

/** GitLab's admin_issue_link: at least Guest in the issue's project, which is not archived (read-only). */
const mayLink = (ctx: RequestContext, project: ProjectView) => !project.archived && effectiveProjectLevel(ctx, project) >= GUEST

export interface RelatedIssue { issue: IssueRow; link: store.IssueLinkRow; linkType: LinkType }

/** The issues linked to this one that the caller may read, oldest link first; a `blocks` seen from its target is `is_blocked_by`. */
export function relatedIssues(ctx: RequestContext, issue: IssueRow): RelatedIssue[] {
  const db = ctx.app.db
  return store.linksOf(db, issue.id).flatMap((link) => {
    const other = findIssueById(db, link.source_id === issue.id ? link.target_id : link.source_id)
    if (!other || !readable(ctx, other)) return []
    const linkType: LinkType = link.link_type === 'blocks' && link.target_id === issue.id ? 'is_blocked_by' : link.link_type
    return [{ issue: other, link, linkType }]
  })
}

export interface CreateLinkInput { target_project_id: string; target_issue_iid: number; link_type?: LinkType }

/** The relation notes of a new link, on both of its issues. */
function noteLinked(ctx: RequestContext, link: store.IssueLinkRow, source: IssueRow, target: IssueRow, at: string) {
  const db = ctx.app.db
  const sp = findProjectById(db, source.project_id)!
  const tp = findProjectById(db, target.project_id)!
  const [onSource, onTarget] = link.link_type === 'blocks' ? ['blocking', 'blocked by'] : ['related to', 'related to']
  addSystemNote(ctx, source.id, `marked this issue as ${onSource} ${issueReference(target, tp, sp)}`, at)
  addSystemNote(ctx, target.id, `marked this issue as ${onTarget} ${issueReference(source, sp, tp)}`, at)
}

export function createIssueLink(ctx: RequestContext, project: ProjectView, issue: IssueRow, input: CreateLinkInput) {
  const db = ctx.app.db
  const targetProject = findVisibleProject(ctx, input.target_project_id)
  const target = findVisibleIssue(ctx, targetProject, input.target_issue_iid)
  if (target.id !== issue.id && store.findLinkBetween(db, issue.id, target.id)) throw apiError('ISSUE_LINK_EXISTS', 409, 'Issue(s) already assigned')
  if (!mayLink(ctx, targetProject) || !mayLink(ctx, project)) {
    throw apiError('ISSUE_LINK_FORBIDDEN', 403, "Couldn't link issues. You must have at least the Guest role in both projects.")
  }
  const ref = `#${target.iid}`
  if (target.id === issue.id) throw apiError('ISSUE_LINK_INVALID', 422, `${ref} cannot be added: cannot be related to itself`)
  if (store.linkCount(db, issue.id) >= MAX_LINKS || store.linkCount(db, target.id) >= MAX_LINKS) {
    throw apiError('ISSUE_LINK_INVALID', 422, `${ref} cannot be added: This issue would exceed the maximum number of linked issues (${MAX_LINKS}).`)
  }
  // EE stores is_blocked_by as the opposite `blocks` link.
  const [source, dest] = input.link_type === 'is_blocked_by' ? [target, issue] : [issue, target]
  const at = nowIso(ctx)
  return transaction(db, () => {
    const link = store.insertIssueLink(db, {
      source_id: source.id, target_id: dest.id, link_type: input.link_type === 'relates_to' || input.link_type === undefined ? 'relates_to' : 'blocks',
      created_at: at, updated_at: at,
    })
    noteLinked(ctx, link, source, dest, at)
    return { link, source, target: dest }
  })
}

/** A link of this issue whose other end the caller may see; GitLab's ActiveRecord miss otherwise. */
export function findIssueLink(ctx: RequestContext, issue: IssueRow, linkId: number) {
  const db = ctx.app.db
  const link = store.findLinkOf(db, issue.id, linkId)
  const source = link && findIssueById(db, link.source_id)
  const target = link && findIssueById(db, link.target_id)
  if (!link || !source || !target || !readable(ctx, source) || !readable(ctx, target)) throw apiError('ISSUE_LINK_NOT_FOUND', 404, '404 Not found')
  return { link, source, target }
}

export function deleteIssueLink(ctx: RequestContext, found: ReturnType<typeof findIssueLink>) {
  const db = ctx.app.db
  const { link, source, target } = found
  const sp = findProjectById(db, source.project_id)!
  const tp = findProjectById(db, target.project_id)!
  if (!mayLink(ctx, sp) || !mayLink(ctx, tp)) throw apiError('ISSUE_LINK_NOT_FOUND', 404, 'No Issue Link found')
  const at = nowIso(ctx)
  transaction(db, () => {
    store.deleteIssueLink(db, link.id)
    addSystemNote(ctx, source.id, `removed the relation with ${issueReference(target, tp, sp)}`, at)
    addSystemNote(ctx, target.id, `removed the relation with ${issueReference(source, sp, tp)}`, at)
  })
}

/** Whether `text`, written in project `from`, refers to the issue: `#N`, `path#N`, `full/path#N` or the issue's URL. */
const namesIssue = (text: string, issue: IssueRow, issueProject: ProjectView, from: ProjectView) =>
  issueReferencesIn(text).some((ref) => ref.iid === issue.iid && refersTo(ref, issueProject, from))

/**
 * Merge requests that close the issue or name it in their title, description or a note, in projects whose code the
 * caller may read: the issue's project first, then by iid, as GitLab's ReferencedMergeRequestsService sorts them.
 */
export function relatedMergeRequests(ctx: RequestContext, project: ProjectView, issue: IssueRow): MergeRequestRow[] {
  const db = ctx.app.db
  const out = store.mergeRequestsNaming(db, issue.id, issue.iid).filter((mr) => {
    const from = findProjectById(db, mr.project_id)
    if (!from || !canReadCode(ctx, from)) return false
    if (store.closesIssue(db, mr.id, issue.id)) return true
    return [mr.title, mr.description ?? '', ...store.noteBodiesOf(db, mr.id)].some((text) => namesIssue(text, issue, project, from))
  })
  return out.sort((a, b) => Number(a.project_id !== project.id) - Number(b.project_id !== project.id) || a.project_id - b.project_id || a.iid - b.iid)
}
