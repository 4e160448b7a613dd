// Branches and tags: listing with search, reading, creating and deleting, with GitLab's rules and messages.
import { CollabError, notFound } from '../../../core/errors.js'
import { userPattern } from '../../../core/re2.js'
import type { RequestContext } from '../../context.js'
import { branchesMergedInto, isAncestor, listBranches, listTags, readBranch, readCommitInfo, readRef, readTagInfo } from '../../git/read.js'
import { createBranch, createTag, deleteBranch, deleteTag } from '../../git/write.js'
import type { CommitInfo, TagInfo } from '../../git/types.js'
import { updateProject, type ProjectView } from '../../store/projects.js'
import { afterWrite } from './commits.js'
import { emitRefsMoved } from './git-access.js'
import { branchProtection, projectRules, requireCreateBranch, requireDeleteBranch, type BranchProtection } from './protected-branches.js'
import { requireCreateTag, requireDeleteTag } from './protected-tags.js'
import { gitdirOf, guardGit, requirePushCode, requireReadCode, signatureOf } from './repository.js'

export interface BranchView extends BranchProtection { name: string; commit: CommitInfo; merged: boolean; default: boolean }

function matcher(search?: string) {
  if (!search) return () => true
  // GitLab: `^foo` anchors at the start, `foo$` at the end, otherwise a substring match.
  const start = search.startsWith('^')
  const end = search.endsWith('$')
  const core = search.slice(start ? 1 : 0, end ? -1 : undefined).toLowerCase()
  return (name: string) => {
    const n = name.toLowerCase()
    if (start && end) return n === core
    if (start) return n.startsWith(core)
    if (end) return n.endsWith(core)
    return n.includes(core)
  }
}

/** `merged` as listed for a page of branches, or null to ask for this branch alone. */
async function branchView(ctx: RequestContext, p: ProjectView, name: string, oid: string, defaultHead: string | null, rules = projectRules(ctx.app, p), merged: Set<string> | null = null): Promise<BranchView> {
  const gitdir = gitdirOf(ctx, p)
  const isDefault = name === p.default_branch
  return {
    name,
    commit: await readCommitInfo(gitdir, oid),
    merged: !isDefault && defaultHead !== null && (merged ? merged.has(name) : await isAncestor(gitdir, oid, defaultHead)),
    default: isDefault,
    ...branchProtection(ctx, p, rules, name),
  }
}

async function defaultHead(ctx: RequestContext, p: ProjectView) {
  return p.default_branch ? (await readBranch(gitdirOf(ctx, p), p.default_branch))?.oid ?? null : null
}

export async function listBranchViews(ctx: RequestContext, p: ProjectView, search?: string, regex?: string) {
  requireReadCode(ctx, p)
  // RE2, as GitLab's BranchesFinder: the pattern is the caller's, and a JavaScript one could backtrack for minutes.
  const re = regex ? userPattern(regex) : null
  if (regex && !re) throw new CollabError('BAD_REGEX', '400 Bad request - regex is invalid', { status: 400 })
  const match = matcher(search)
  const all = (await listBranches(gitdirOf(ctx, p))).filter((b) => match(b.name) && (!re || re.test(b.name) === true))
  const page = all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit)
  const head = await defaultHead(ctx, p)
  const rules = projectRules(ctx.app, p)
  const merged = head === null ? new Set<string>() : await branchesMergedInto(gitdirOf(ctx, p), head, page)
  const views = []
  for (const b of page) views.push(await branchView(ctx, p, b.name, b.oid, head, rules, merged))
  return { views, total: all.length }
}

export async function getBranchView(ctx: RequestContext, p: ProjectView, name: string) {
  requireReadCode(ctx, p)
  const b = await readBranch(gitdirOf(ctx, p), name)
  if (!b) throw notFound('Branch')
  return branchView(ctx, p, b.name, b.oid, await defaultHead(ctx, p))
}

export async function createBranchFrom(ctx: RequestContext, p: ProjectView, name: string, ref: string) {
  requirePushCode(ctx, p)
  if (!name.trim() || !ref.trim()) throw new CollabError('BAD_REQUEST', '400 Bad request - branch and ref must not be blank', { status: 400 })
  requireCreateBranch(ctx, p, name)
  const oid = await guardGit(() => createBranch(gitdirOf(ctx, p), name, ref))
  await afterWrite(ctx, p, name, null, oid)
  return branchView(ctx, p, name, oid, await defaultHead(ctx, p))
}

export async function removeBranch(ctx: RequestContext, p: ProjectView, name: string) {
  requirePushCode(ctx, p)
  if (name === p.default_branch) {
    throw new CollabError('DEFAULT_BRANCH', 'The default branch of a project cannot be deleted.', { status: 405 })
  }
  requireDeleteBranch(ctx, p, name)
  const before = (await readBranch(gitdirOf(ctx, p), name))?.oid ?? null
  await guardGit(() => deleteBranch(gitdirOf(ctx, p), name))
  await afterWrite(ctx, p, name, before, null)
}

export interface TagView { tag: TagInfo; commit: CommitInfo }

const versionKey = (name: string) => name.replace(/^v/i, '').split(/[.-]/).map((part) => (/^\d+$/.test(part) ? part.padStart(10, '0') : part)).join('.')

export async function listTagViews(ctx: RequestContext, p: ProjectView, f: { search?: string; order_by?: 'name' | 'updated' | 'version'; sort?: 'asc' | 'desc' }) {
  requireReadCode(ctx, p)
  const gitdir = gitdirOf(ctx, p)
  const match = matcher(f.search)
  const tags = (await listTags(gitdir)).filter((t) => match(t.name))
  const withCommits = await Promise.all(tags.map(async (tag) => ({ tag, commit: await readCommitInfo(gitdir, tag.commit) })))
  const key = (v: TagView) => f.order_by === 'name' ? v.tag.name : f.order_by === 'version' ? versionKey(v.tag.name) : v.commit.committedDate
  const dir = (f.sort ?? 'desc') === 'asc' ? 1 : -1
  withCommits.sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : a.tag.name.localeCompare(b.tag.name)))
  return { views: withCommits.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), total: withCommits.length }
}

export async function getTagView(ctx: RequestContext, p: ProjectView, name: string): Promise<TagView> {
  requireReadCode(ctx, p)
  const gitdir = gitdirOf(ctx, p)
  const tag = await readTagInfo(gitdir, name)
  if (!tag) throw notFound('Tag')
  return { tag, commit: await readCommitInfo(gitdir, tag.commit) }
}

export async function createTagAt(ctx: RequestContext, p: ProjectView, input: { tag_name: string; ref: string; message?: string }) {
  requirePushCode(ctx, p)
  await guardGit(() => createTag(gitdirOf(ctx, p), input.tag_name, input.ref, input.message || undefined, signatureOf(ctx),
    () => requireCreateTag(ctx, p, input.tag_name)))
  const view = await getTagView(ctx, p, input.tag_name)
  // A new tag starts its pipeline as a pushed one would.
  if (ctx.user) emitRefsMoved(ctx.app, { project: p, user: ctx.user, changes: [{ ref: `refs/tags/${input.tag_name}`, before: null, after: view.commit.id }] })
  return view
}

export async function removeTag(ctx: RequestContext, p: ProjectView, name: string) {
  requirePushCode(ctx, p)
  const before = await readRef(gitdirOf(ctx, p), `refs/tags/${name}`).catch(() => null)
  // GitLab finds the tag first (404), then asks whether it may go.
  if (before) requireDeleteTag(ctx, p, name)
  await guardGit(() => deleteTag(gitdirOf(ctx, p), name))
  // As a pushed tag deletion: tag push hooks and the events feed hear it.
  if (ctx.user && before) emitRefsMoved(ctx.app, { project: p, user: ctx.user, changes: [{ ref: `refs/tags/${name}`, before, after: null }] })
}
