// The Search API's rules: which scopes each level (instance, group, project) has, GitLab's limits on the query, and
// one bounded lookup per scope over what the caller can read.
import { CollabError, badRequest } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { readCommitInfo, resolveCommit } from '../../git/read.js'
import { repositoryDir } from '../../git/repository.js'
import { grepBlobs, grepCommitIds, type BlobMatch } from '../../git/search.js'
import { wikiBranch, wikiCommit, wikiDir } from '../../git/wiki.js'
import type { CommitInfo } from '../../git/types.js'
import { REPORTER, canReadCode, effectiveProjectLevel, isAdmin, openVisibilities } from '../../policy.js'
import type { IssueVersion } from '../../store/issues.js'
import type { NamespaceRow } from '../../store/namespaces.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import * as store from '../../store/search.js'
import type { SnippetRow } from '../../store/snippets.js'
import type { UserRow } from '../../store/users.js'
import * as issues from '../issuables/issues.js'
import { listMembers } from '../projects/members.js'
import * as mrs from '../merge-requests/merge-requests.js'
import { listMilestones } from '../issuables/milestones.js'
import { listUsersOf } from '../projects/projects.js'
import { listUsers } from '../users/users.js'

export type SearchLevel = { kind: 'global' } | { kind: 'group'; group: NamespaceRow } | { kind: 'project'; project: ProjectView }

// GitLab CE without Elasticsearch: blobs, commits and wiki blobs are searched in one project's repositories only.
const SCOPES = {
  global: ['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'users'],
  group: ['projects', 'issues', 'merge_requests', 'milestones', 'users'],
  project: ['issues', 'merge_requests', 'milestones', 'notes', 'commits', 'blobs', 'wiki_blobs', 'users'],
} as const

/** GitLab's Gitlab::Search::Params limits. */
const MAX_CHARS = 4096
const MAX_TERMS = 64
/** Repository hits read per query: a page past these is empty rather than a walk of the whole history. */
const MAX_BLOB_CHUNKS = 1000
const MAX_COMMITS = 1000

export interface SearchInput {
  scope: string; search: string; state?: 'all' | 'opened' | 'closed' | 'merged'; confidential?: boolean
  order_by?: 'created_at'; sort?: 'asc' | 'desc'; ref?: string
}

export type BlobHit = BlobMatch & { ref: string; project_id: number }
export type MilestoneHit = store.MilestoneHit

export type SearchResult =
  | { scope: 'projects'; rows: ProjectView[]; total: number }
  | { scope: 'issues'; items: IssueVersion[]; total: number }
  | { scope: 'merge_requests'; rows: mrs.MergeRequestRow[]; total: number }
  | { scope: 'milestones'; rows: MilestoneHit[]; total: number }
  | { scope: 'notes'; rows: store.NoteHit[]; total: number }
  | { scope: 'commits'; rows: CommitInfo[]; total: number; project: ProjectView }
  | { scope: 'blobs' | 'wiki_blobs'; rows: BlobHit[]; total: number }
  | { scope: 'snippet_titles'; rows: SnippetRow[]; total: number }
  | { scope: 'users'; rows: UserRow[]; total: number }

function checkInput(level: SearchLevel, input: SearchInput) {
  if (!(SCOPES[level.kind] as readonly string[]).includes(input.scope)) {
    throw new CollabError('SEARCH_SCOPE_INVALID', 'scope does not have a valid value', { status: 400, body: { error: 'scope does not have a valid value' } })
  }
  const term = input.search.trim()
  if (!term) throw new CollabError('SEARCH_EMPTY', 'search is empty', { status: 400, body: { error: 'search is empty' } })
  if (input.search.length > MAX_CHARS) throw badRequest(`Search query is too long (maximum is ${MAX_CHARS} characters)`)
  if (term.split(/\s+/).length > MAX_TERMS) throw badRequest(`Search query has too many terms (maximum is ${MAX_TERMS})`)
}

const page = <T>(ctx: RequestContext, all: T[]) => all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit)

export async function search(ctx: RequestContext, level: SearchLevel, input: SearchInput): Promise<SearchResult> {
  checkInput(level, input)
  const q = input.search.trim()
  const where = level.kind === 'project' ? { project: level.project } : level.kind === 'group' ? { groupId: level.group.id } : {}
  const scope = input.scope
  if (level.kind === 'project' && featureOff(level.project, scope)) return { scope, rows: [], items: [], total: 0 } as SearchResult
  if (scope === 'issues') {
    return { scope, ...issues.listIssueVersions(ctx, { scope: 'all', search: q, state: input.state as 'opened' | 'closed' | 'all' | undefined, confidential: input.confidential, order_by: input.order_by, sort: input.sort }, where) }
  }
  if (scope === 'merge_requests') {
    return { scope, ...mrs.listMergeRequests(ctx, { scope: 'all', search: q, state: input.state, order_by: input.order_by, sort: input.sort }, where) }
  }
  if (scope === 'projects') return { scope, ...searchProjects(ctx, level, q) }
  if (scope === 'milestones') return { scope, ...searchMilestones(ctx, level, q) }
  if (scope === 'users') return { scope, ...searchUsers(ctx, level, q) }
  if (scope === 'snippet_titles') {
    return { scope, ...store.searchSnippetTitles(ctx.app.db, { viewer: ctx.user!.id, admin: isAdmin(ctx), open: openVisibilities(ctx), search: q, ...ctx.page }) }
  }
  if (level.kind !== 'project') throw new Error(`scope ${scope} reached a ${level.kind} search`)
  const p = level.project
  if (scope === 'notes') {
    const readsConfidential = effectiveProjectLevel(ctx, p) >= REPORTER
    const readsMergeRequests = canReadCode(ctx, p)
    return { scope, ...store.searchProjectNotes(ctx.app.db, { projectId: p.id, viewer: ctx.user!.id, readsConfidential, readsMergeRequests, search: q, ...ctx.page }) }
  }
  if (scope === 'commits') return { scope, project: p, ...(await searchCommits(ctx, p, q, input.ref)) }
  if (scope === 'blobs') return { scope, ...(await searchBlobs(ctx, p, q, input.ref, 'repository')) }
  return { scope: 'wiki_blobs', ...(await searchBlobs(ctx, p, q, undefined, 'wiki')) }
}

/** A project search finds nothing in a feature the project has turned off, as GitLab's does. */
function featureOff(p: ProjectView, scope: string) {
  return (scope === 'issues' && p.issues_enabled !== 1) || (scope === 'merge_requests' && p.merge_requests_enabled !== 1)
    || (scope === 'wiki_blobs' && p.wiki_enabled !== 1)
}

function searchProjects(ctx: RequestContext, level: SearchLevel, q: string) {
  const groupId = level.kind === 'group' ? level.group.id : undefined
  const { ids, total } = store.searchProjectIds(ctx.app.db, { viewer: ctx.user!.id, admin: isAdmin(ctx), open: openVisibilities(ctx), search: q, groupId, ...ctx.page })
  return { rows: ids.map((id) => findProjectById(ctx.app.db, id)!), total }
}

function searchMilestones(ctx: RequestContext, level: SearchLevel, q: string) {
  if (level.kind === 'project') {
    const path = `${level.project.ns_full_path}/${level.project.path}`
    const { rows, total } = listMilestones(ctx, level.project, { search: q })
    return { rows: rows.map((m) => ({ ...m, project_full_path: path })), total }
  }
  const groupId = level.kind === 'group' ? level.group.id : undefined
  return store.searchMilestones(ctx.app.db, { viewer: ctx.user!.id, admin: isAdmin(ctx), open: openVisibilities(ctx), search: q, groupId, ...ctx.page })
}

function searchUsers(ctx: RequestContext, level: SearchLevel, q: string): { rows: UserRow[]; total: number } {
  if (level.kind === 'project') return listUsersOf(ctx, level.project, { search: q })
  if (level.kind === 'group') return listMembers(ctx, { kind: 'group', group: level.group }, true, { query: q })
  return listUsers(ctx, { search: q, orderBy: 'id', sort: 'desc' })
}

// git takes no NUL in an argument, and finds none in the text files it greps: such a query matches nothing.
const greppable = (q: string) => !q.includes('\0')

async function searchCommits(ctx: RequestContext, p: ProjectView, q: string, ref?: string) {
  if (!canReadCode(ctx, p) || !greppable(q)) return { rows: [], total: 0 }
  const gitdir = repositoryDir(ctx.app.layout.repositories, p.id)
  const commit = await resolveCommit(gitdir, ref ?? p.default_branch ?? 'main')
  if (!commit) return { rows: [], total: 0 }
  const ids = await grepCommitIds(gitdir, commit, q, MAX_COMMITS)
  const rows: CommitInfo[] = []
  for (const id of page(ctx, ids)) rows.push(await readCommitInfo(gitdir, id))
  return { rows, total: ids.length }
}

async function searchBlobs(ctx: RequestContext, p: ProjectView, q: string, ref: string | undefined, where: 'repository' | 'wiki') {
  if ((where === 'repository' && !canReadCode(ctx, p)) || !greppable(q)) return { rows: [], total: 0 }
  const gitdir = where === 'repository' ? repositoryDir(ctx.app.layout.repositories, p.id) : wikiDir(ctx.app.layout.repositories, p.id)
  const fallback = p.default_branch ?? 'main'
  const name = where === 'repository' ? ref ?? fallback : await wikiBranch(gitdir, fallback)
  const commit = where === 'repository' ? await resolveCommit(gitdir, name) : await wikiCommit(gitdir)
  if (!commit) return { rows: [], total: 0 }
  const chunks = await grepBlobs(gitdir, commit, q, MAX_BLOB_CHUNKS)
  return { rows: page(ctx, chunks).map((c) => ({ ...c, ref: name, project_id: p.id })), total: chunks.length }
}
