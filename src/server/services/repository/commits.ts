// The Commits API's rules: listing, reading, creating from actions, diffs, refs and cherry-picks.
import type { CommitAction } from '../../../contract/endpoints/commits.js'
import { badRequest, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { cherryPick } from '../../git/cherry-pick.js'
import { commitDiff, commitDiffPage, diffStats } from '../../git/diff.js'
import { GitCommandError } from '../../git/exec.js'
import { logCommits, logPage, type LogQuery } from '../../git/log.js'
import { readCommitInfo, refsContaining, resolveCommit, unpeeledTarget } from '../../git/read.js'
import type { CommitInfo } from '../../git/types.js'
import { commitActions, setHead, type FileAction } from '../../git/write.js'
import { findProjectById, updateProject, type ProjectView } from '../../store/projects.js'
import { emitRefsMoved } from './git-access.js'
import { protectDefaultBranch, requirePushTo } from './protected-branches.js'
import { checkFilePath, commitOr404, gitdirOf, guardGit, requirePushCode, requireReadCode, signatureOf } from './repository.js'

export interface ListCommitsInput {
  ref_name?: string
  since?: string
  until?: string
  path?: string
  all?: boolean
  first_parent?: boolean
  order?: 'default' | 'topo'
  author?: string
}

function logQuery(ctx: RequestContext, input: ListCommitsInput, from: string[]): LogQuery {
  // `dir/` and `/dir` name the directory; `/` alone is the whole tree, i.e. no filter.
  const path = input.path?.replace(/^\/+|\/+$/g, '') || undefined
  if (path) checkFilePath(path, 'path')
  return {
    from, all: input.all, since: input.since, until: input.until, path, author: input.author,
    firstParent: input.first_parent, topo: input.order === 'topo', offset: ctx.page.offset, limit: ctx.page.limit,
  }
}

const refOf = (p: ProjectView, input: ListCommitsInput) => input.ref_name ?? p.default_branch ?? 'master'

/** A page of commits and the size of the whole history (for pages that show it). */
export async function listCommits(ctx: RequestContext, p: ProjectView, input: ListCommitsInput) {
  requireReadCode(ctx, p)
  const gitdir = gitdirOf(ctx, p)
  if (input.all) return logCommits(gitdir, logQuery(ctx, input, []))
  const oid = await resolveCommit(gitdir, refOf(p, input))
  // GitLab answers an unknown ref with 404; an empty repository simply has no commits.
  if (!oid) {
    if (p.empty_repo) return { commits: [], total: 0 }
    throw notFound('Commit')
  }
  return logCommits(gitdir, logQuery(ctx, input, [oid]))
}

/**
 * A page of commits, whether another follows, and the total when the history (with the filters) holds at most 10,000
 * commits, as GitLab's API pages them. A branch or tag is read from its ref file and handed to the page's `git log`
 * and the count beside it, which peel it.
 */
export async function listCommitsPage(ctx: RequestContext, p: ProjectView, input: ListCommitsInput): Promise<{ commits: CommitInfo[]; hasNextPage: boolean; total?: number }> {
  requireReadCode(ctx, p)
  const gitdir = gitdirOf(ctx, p)
  if (input.all) return logPage(gitdir, logQuery(ctx, input, []))
  const ref = refOf(p, input)
  const unchecked = await unpeeledTarget(gitdir, ref)
  const oid = unchecked ?? (await resolveCommit(gitdir, ref))
  if (!oid) {
    if (p.empty_repo) return { commits: [], hasNextPage: false, total: 0 }
    throw notFound('Commit')
  }
  // git log fails on a missing object and lists nothing from a tree or blob: only then is the id checked.
  const named = async () => unchecked === null || (await resolveCommit(gitdir, ref)) !== null
  const page = await logPage(gitdir, logQuery(ctx, input, [oid])).catch(async (err: unknown) => {
    if (err instanceof GitCommandError && !(await named())) throw notFound('Commit')
    throw err
  })
  if (!page.commits.length && !(await named())) throw notFound('Commit')
  return page
}

export async function getCommit(ctx: RequestContext, p: ProjectView, sha: string) {
  requireReadCode(ctx, p)
  const gitdir = gitdirOf(ctx, p)
  return readCommitInfo(gitdir, await commitOr404(ctx, p, sha))
}

export async function statsOf(ctx: RequestContext, p: ProjectView, oid: string) {
  return diffStats(await commitDiff(gitdirOf(ctx, p), oid))
}

export async function getDiff(ctx: RequestContext, p: ProjectView, sha: string) {
  requireReadCode(ctx, p)
  return commitDiff(gitdirOf(ctx, p), await commitOr404(ctx, p, sha))
}

/** A page of a commit's diff, answered as soon as git has written that far into it. */
export async function getDiffPage(ctx: RequestContext, p: ProjectView, sha: string) {
  requireReadCode(ctx, p)
  return commitDiffPage(gitdirOf(ctx, p), await commitOr404(ctx, p, sha), ctx.page.offset, ctx.page.limit)
}

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/

function decodeContent(a: CommitAction, index: number): Buffer | undefined {
  if (a.content === undefined) return undefined
  if (a.encoding !== 'base64') return Buffer.from(a.content, 'utf8')
  const compact = a.content.replace(/\s+/g, '')
  if (!BASE64.test(a.content) || compact.length % 4 === 1) throw badRequest(`actions[${index}] content is not valid base64`)
  return Buffer.from(compact, 'base64')
}

export function toFileActions(actions: CommitAction[]): FileAction[] {
  if (!actions.length) throw badRequest('actions is empty')
  return actions.map((a, i) => {
    if (a.action !== 'delete' && a.action !== 'move' && a.action !== 'chmod' && a.content === undefined) {
      throw badRequest(`actions[${i}] content is missing for the ${a.action} action`)
    }
    if (a.last_commit_id !== undefined && !/^[0-9a-f]{4,40}$/i.test(a.last_commit_id)) throw badRequest(`actions[${i}] last_commit_id is not a commit id`)
    return {
      action: a.action,
      filePath: checkFilePath(a.file_path, `actions[${i}].file_path`),
      previousPath: a.previous_path === undefined ? undefined : checkFilePath(a.previous_path, `actions[${i}].previous_path`),
      content: decodeContent(a, i),
      lastCommitId: a.last_commit_id?.toLowerCase(),
      executeFilemode: a.execute_filemode,
    }
  })
}

export interface CreateCommitInput {
  branch: string
  commit_message: string
  start_branch?: string
  start_sha?: string
  actions: CommitAction[]
  author_email?: string
  author_name?: string
  force?: boolean
}

export async function createCommit(ctx: RequestContext, p: ProjectView, input: CreateCommitInput) {
  requirePushCode(ctx, p)
  requirePushTo(ctx, p, input.branch, { force: input.force })
  const actions = toFileActions(input.actions)
  const gitdir = gitdirOf(ctx, p)
  const committer = signatureOf(ctx)
  const author = signatureOf(ctx, input.author_name, input.author_email)
  const { oid, before } = await guardGit(() => commitActions(gitdir, {
    branch: input.branch, start: input.start_sha ?? input.start_branch, force: input.force, message: input.commit_message,
    author, committer, actions,
  }))
  await afterWrite(ctx, p, input.branch, before, oid)
  return readCommitInfo(gitdir, oid)
}

/**
 * After the API moved a branch: activity is bumped, the first branch of an empty project becomes its default (and
 * HEAD, so clones check it out), and subscribers to moved refs hear of it as they do of pushes.
 */
export async function afterWrite(ctx: RequestContext, p: ProjectView, branch: string, before: string | null, after: string | null) {
  const patch: Parameters<typeof updateProject>[2] = { last_activity_at: nowIso(ctx), empty_repo: 0 }
  if (p.empty_repo && after) {
    patch.default_branch = branch
    await setHead(gitdirOf(ctx, p), branch)
    protectDefaultBranch(ctx.app, p, branch)
  }
  updateProject(ctx.app.db, p.id, patch)
  if (ctx.user) emitRefsMoved(ctx.app, { project: findProjectById(ctx.app.db, p.id) ?? p, user: ctx.user, changes: [{ ref: `refs/heads/${branch}`, before, after }] })
}

export async function commitRefs(ctx: RequestContext, p: ProjectView, sha: string, type: 'branch' | 'tag' | 'all') {
  requireReadCode(ctx, p)
  const gitdir = gitdirOf(ctx, p)
  const oid = await commitOr404(ctx, p, sha)
  const { branches, tags } = await refsContaining(gitdir, oid, { branches: type !== 'tag', tags: type !== 'branch' })
  return [...branches.map((name) => ({ type: 'branch' as const, name })), ...tags.map((name) => ({ type: 'tag' as const, name }))]
}

export async function cherryPickCommit(ctx: RequestContext, p: ProjectView, sha: string, input: { branch: string; dry_run?: boolean; message?: string }) {
  requirePushCode(ctx, p)
  requirePushTo(ctx, p, input.branch)
  const gitdir = gitdirOf(ctx, p)
  const oid = await commitOr404(ctx, p, sha)
  const result = await guardGit(() => cherryPick(gitdir, { sha: oid, branch: input.branch, committer: signatureOf(ctx), dryRun: input.dry_run, message: input.message }))
  if (!result.dryRun) await afterWrite(ctx, p, input.branch, result.before, result.oid)
  return result
}
