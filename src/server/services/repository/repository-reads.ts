// The rules of the repository reads of issue 15: archives, blame, blobs, merge base, signatures, and revert.
import type { Readable } from 'node:stream'
import { badRequest, CollabError, notFound, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { archiveKind, archiveStream, type ArchiveKind } from '../../git/archive.js'
import { archiveCacheDir, archiveCacheKey, cachedArchive, teeToCache } from '../../git/archive-cache.js'
import { blameFile, blobLineCount } from '../../git/blame.js'
import { blobInfo, blobToSend, entryAt, mergeBaseOf, readCommitInfo, resolveCommit } from '../../git/read.js'
import { revert } from '../../git/revert.js'
import { readCommitSignature } from '../../git/signature.js'
import { GitError } from '../../git/types.js'
import type { ProjectView } from '../../store/projects.js'
import { mergeRequestsWithCommit } from '../../store/merge-requests.js'
import { afterWrite } from './commits.js'
import { requirePushTo } from './protected-branches.js'
import { checkFilePath, commitOr404, gitdirOf, guardGit, requirePushCode, requireReadCode, signatureOf } from './repository.js'

export interface ArchiveDownload { stream: Readable; filename: string; kind: ArchiveKind }

/**
 * Gitlab::Git::Repository#archive_prefix: `<path>-<ref>-<sha>[-<dir>]` with append_sha (the API always appends it),
 * `<path>-<ref>[-<dir>]` without (the web's `/-/archive/<ref>/<file>`, where a release's sources point).
 */
function archivePrefix(p: ProjectView, ref: string, sha: string | null, path: string | undefined) {
  const segments = [p.path, ref.replace(/\//g, '-'), ...(sha ? [sha] : [])]
  if (path) segments.push(path.replace(/\//g, '-'))
  return segments.join('-')
}

/** An archive of a commit (the default branch unless `sha` names another), streamed from `git archive`. */
export async function repositoryArchive(ctx: RequestContext, p: ProjectView,
  input: { format?: string; sha?: string; path?: string; exclude_paths?: string[] }, appendSha = true): Promise<ArchiveDownload> {
  requireReadCode(ctx, p)
  // An unknown format is an unknown route in GitLab (archive_formats_regex), so its 404 is the router's.
  const kind = archiveKind(input.format ?? 'tar.gz')
  if (!kind) throw new CollabError('ROUTE_NOT_FOUND', '404 Not Found', { status: 404, body: { error: '404 Not Found' } })
  const ref = input.sha || p.default_branch
  const gitdir = gitdirOf(ctx, p)
  const commit = ref && !p.empty_repo ? await resolveCommit(gitdir, ref) : null
  // archive_metadata answers {} for a ref that names no commit, which send_git_archive turns into a 404.
  if (!ref || !commit) throw new CollabError('NOT_FOUND', '404 Not Found', { status: 404 })
  const trimmed = input.path?.replace(/^\/+|\/+$/g, '') || undefined
  const path = trimmed === undefined ? undefined : checkFilePath(trimmed, 'path')
  if (path && !(await entryAt(gitdir, commit, path))) throw notFound('File')
  const exclude = (input.exclude_paths ?? []).map((e) => e.replace(/^\/+|\/+$/g, '')).filter(Boolean).map((e) => checkFilePath(e, 'exclude_paths'))
  const prefix = archivePrefix(p, ref, appendSha ? commit : null, path)
  const cacheDir = archiveCacheDir(ctx.app.layout.root, p.id)
  const key = `${archiveCacheKey([commit, kind, prefix, path ?? null, exclude])}.${kind}`
  const stream = (await cachedArchive(cacheDir, key)) ?? teeToCache(cacheDir, key, archiveStream(gitdir, commit, { kind, prefix, path, exclude }))
  return { stream, filename: `${prefix}.${kind}`, kind }
}

/** Gitlab::Blame#groups of a file at a ref: each run of lines with its commit. */
export async function fileBlame(ctx: RequestContext, p: ProjectView, rawPath: string, input: { ref?: string; range?: { start: number; end: number } }) {
  requireReadCode(ctx, p)
  const path = checkFilePath(rawPath)
  const gitdir = gitdirOf(ctx, p)
  const commit = await commitOr404(ctx, p, input.ref ?? p.default_branch ?? 'HEAD')
  const entry = await entryAt(gitdir, commit, path)
  if (!entry || entry.type !== 'blob') throw notFound('File')
  const range = input.range
  if (range) {
    for (const side of ['start', 'end'] as const) if (range[side] < 1) throw validationFailed({ [`range[${side}]`]: ['does not have a valid value'] })
    if (range.start > range.end) throw badRequest('range[start] must be less than or equal to range[end]')
    const lines = await blobLineCount(gitdir, entry.oid)
    // git refuses a range past the end; GitLab answers the lines there are.
    if (range.start > lines) return []
    range.end = Math.min(range.end, lines)
  } else if (entry.oid === EMPTY_BLOB) return []
  const groups = await blameFile(gitdir, commit, path, range)
  const infos = new Map<string, Awaited<ReturnType<typeof readCommitInfo>>>()
  for (const g of groups) if (!infos.has(g.commit)) infos.set(g.commit, await readCommitInfo(gitdir, g.commit))
  return groups.map((g) => ({ commit: infos.get(g.commit)!, lines: g.lines }))
}

const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391'

/** A blob to send as it is read: whole when small, else streamed from git (see blobToSend). */
export async function blobById(ctx: RequestContext, p: ProjectView, sha: string) {
  requireReadCode(ctx, p)
  const gitdir = gitdirOf(ctx, p)
  const info = p.empty_repo ? null : await blobInfo(gitdir, sha.toLowerCase())
  if (!info) throw notFound('Blob')
  return { ...info, ...(await blobToSend(gitdir, info.oid, info.size)) }
}

/** API::Repositories merge_base: at least two refs, every one known, then the common ancestor or 404. */
export async function mergeBase(ctx: RequestContext, p: ProjectView, refs: string[]) {
  requireReadCode(ctx, p)
  if (refs.length < 2) throw new CollabError('BAD_REQUEST', 'Provide at least 2 refs', { status: 400 })
  const gitdir = gitdirOf(ctx, p)
  const commits: string[] = []
  const unknown: string[] = []
  for (const r of refs) {
    const oid = await resolveCommit(gitdir, r)
    if (oid) commits.push(oid)
    else unknown.push(r)
  }
  if (unknown.length) throw new CollabError('BAD_REQUEST', `Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`, { status: 400 })
  const base = await mergeBaseOf(gitdir, commits)
  if (!base) throw notFound('Merge Base')
  return readCommitInfo(gitdir, base)
}

export async function commitSignature(ctx: RequestContext, p: ProjectView, sha: string) {
  requireReadCode(ctx, p)
  const oid = await commitOr404(ctx, p, sha)
  const signature = await readCommitSignature(gitdirOf(ctx, p), oid)
  if (!signature) throw notFound('Signature')
  return signature
}

/** API::Commits revert: push rights on the branch, the commit and the branch found, then Commits::RevertService. */
export async function revertCommit(ctx: RequestContext, p: ProjectView, sha: string, input: { branch: string; dry_run?: boolean }) {
  requirePushCode(ctx, p)
  requirePushTo(ctx, p, input.branch)
  const oid = await commitOr404(ctx, p, sha)
  const gitdir = gitdirOf(ctx, p)
  try {
    // Commit#merged_merge_request: the merge request this merge commit merged gives the message its wording.
    const merged = mergeRequestsWithCommit(ctx.app.db, p.id, oid).find((m) => m.merge_commit_sha === oid)
    const result = await revert(gitdir, { oid, branch: input.branch, committer: signatureOf(ctx), dryRun: input.dry_run, mergeRequestRef: merged && `!${merged.iid}` })
    if (!result.dryRun) await afterWrite(ctx, p, input.branch, result.before, result.oid)
    return result
  } catch (err) {
    // Both refusals carry an error_code: `conflict` or `empty` (a change the branch no longer has).
    if (err instanceof GitError && err.kind === 'empty') throw new CollabError('GIT_EMPTY', err.message, { status: 400, body: { message: err.message, error_code: 'empty' } })
    return guardGit(() => Promise.reject(err))
  }
}
