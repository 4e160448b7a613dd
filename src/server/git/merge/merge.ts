// Merging a merge request: the dry run behind merge_status, and the merge itself by `merge`, `rebase_merge` or `ff`, with squash.
import fs from 'node:fs'
import * as git from '../iso.js'
import { treeOf } from '../commit-read.js'
import { withRepoLock } from '../lock.js'
import { readRef } from '../read.js'
import { GitError, type CommitInfo } from '../types.js'
import { moveRef, type Signature } from '../write.js'
import { mergeCommits } from './engine.js'
import { commitsAndBase, countBetween, mergeBase } from './history.js'

export type MergeMethod = 'merge' | 'rebase_merge' | 'ff'

/** Both sides changed these paths in ways that cannot be combined (GitLab: `cannot_be_merged`, 406). */
export class MergeConflictError extends GitError {
  constructor(readonly paths: string[]) {
    super('conflict', paths.length ? `Merge conflicts in: ${paths.join(', ')}` : 'The branches share no history')
  }
}

export interface MergeSides {
  sourceBranch: string
  targetBranch: string
  /** Where the source head is read; `refs/heads/<sourceBranch>` unless a fork's head was fetched elsewhere. */
  sourceRef?: string
  method?: MergeMethod
}

export interface MergeCheck {
  sourceHead: string
  targetHead: string
  mergeBase: string | null
  /** Commits on the source that the target lacks; none means there is nothing to merge. */
  commitsCount: number
  /** The target is an ancestor of the source: `ff` and `rebase_merge` need this. */
  ffPossible: boolean
  /** Conflicting paths; empty when the merge is clean. Unrelated histories conflict with no paths. */
  conflicts: string[]
  unrelated: boolean
  needRebase: boolean
  canBeMerged: boolean
}

const needsFastForward = (m: MergeMethod | undefined) => m === 'ff' || m === 'rebase_merge'

export const sourceRefOf = (s: MergeSides) => s.sourceRef ?? `refs/heads/${s.sourceBranch}`

async function heads(gitdir: string, s: MergeSides) {
  const targetHead = await readRef(gitdir, `refs/heads/${s.targetBranch}`)
  if (!targetHead) throw new GitError('not_found', 'Target branch does not exist')
  const sourceHead = await readRef(gitdir, sourceRefOf(s))
  if (!sourceHead) throw new GitError('not_found', 'Source branch does not exist')
  return { sourceHead, targetHead }
}

/** A check with the merged tree (null on a conflict), which only the merge ref (writeMergeRef) and the merge may come to refer to. */
export type CheckedMerge = MergeCheck & { tree: string | null }

/** The parts of a check that depend on the merge method alone. */
function withMethod(c: Omit<CheckedMerge, 'needRebase' | 'canBeMerged'>, method: MergeMethod | undefined): CheckedMerge {
  const needRebase = needsFastForward(method) && !c.ffPossible
  const clean = !c.unrelated && c.tree !== null
  return { ...c, needRebase, canBeMerged: clean && c.commitsCount > 0 && !needRebase }
}

/**
 * Merge base, count and merge at once: each is one git process, and a merge request's merge waits for all three.
 * `known` has what the caller found listing the commits already.
 */
async function check(gitdir: string, s: MergeSides, sourceHead: string, targetHead: string, known: { commitsCount?: number; base?: string } = {}): Promise<CheckedMerge> {
  const [base, count, merged] = await Promise.all([
    known.base ?? mergeBase(gitdir, targetHead, sourceHead),
    known.commitsCount ?? countBetween(gitdir, targetHead, sourceHead),
    known.commitsCount === 0 ? null : mergeCommits(gitdir, targetHead, sourceHead),
  ])
  // The target is an ancestor of the source exactly when it is their merge base. With nothing to merge, the merge
  // is the target as it is.
  const result = count ? merged : { tree: await treeOf(gitdir, targetHead), conflicts: [] }
  return withMethod({
    sourceHead, targetHead, mergeBase: base, commitsCount: count, ffPossible: base === targetHead,
    conflicts: result?.conflicts ?? [], unrelated: result === null, tree: result?.tree ?? null,
  }, s.method)
}

/** "Can it be merged?" Reads both heads and merges in the object store; no ref moves. */
export async function checkMerge(gitdir: string, sides: MergeSides): Promise<CheckedMerge> {
  const { sourceHead, targetHead } = await heads(gitdir, sides)
  return check(gitdir, sides, sourceHead, targetHead)
}

/**
 * The check and the merge request's commits (target..source, newest first, at most `limit`) in one go: a list
 * shorter than the limit is the count, and its walk names the merge base, two git processes fewer.
 */
export async function checkMergeWithCommits(gitdir: string, sides: MergeSides, limit = 1000): Promise<{ check: CheckedMerge; commits: CommitInfo[] }> {
  const { sourceHead, targetHead } = await heads(gitdir, sides)
  const { commits, base } = await commitsAndBase(gitdir, targetHead, sourceHead, limit)
  return { check: await check(gitdir, sides, sourceHead, targetHead, { commitsCount: commits.length < limit ? commits.length : undefined, base }), commits }
}

/**
 * What git decides of GitLab's statuses. A source with no new commits is "broken" and, like a conflict, makes
 * merge_status `cannot_be_merged` (so `has_conflicts` true); a needed rebase does not. `detailed` is the first of the
 * git-decided detailed_merge_status checks that fails, in GitLab's order, or `mergeable`; the service puts the
 * others (not_open, draft_status, discussions, CI) in front.
 */
export function mergeStatusOf(c: MergeCheck): { mergeStatus: 'can_be_merged' | 'cannot_be_merged'; hasConflicts: boolean; detailed: 'commits_status' | 'conflict' | 'need_rebase' | 'mergeable' } {
  const conflicted = c.unrelated || c.conflicts.length > 0
  const broken = c.commitsCount === 0
  const cannot = broken || conflicted
  const detailed = broken ? 'commits_status' : conflicted ? 'conflict' : c.needRebase ? 'need_rebase' : 'mergeable'
  return { mergeStatus: cannot ? 'cannot_be_merged' : 'can_be_merged', hasConflicts: cannot, detailed }
}

export interface MergeRequestMerge extends MergeSides {
  /** The merge commit's message (see defaultMergeCommitMessage). */
  message: string
  /** Author and committer of the merge commit, committer of the squash commit: the merging user. */
  user: Signature
  /** The source head the caller expects (`sha`): another head fails with `sha_mismatch`. */
  sha?: string
  /** The target head the caller's mergeability check saw: another head fails with `stale`. */
  expectedTargetHead?: string
  /** Squash the source's commits into one. Without `message`, a single commit is merged as it is (GitLab skips that squash). */
  squash?: { title: string; message?: string; author: Signature }
  /** Delete the source branch after the merge, if it still points at the merged head (same repository only). */
  removeSourceBranch?: boolean
  /** A check the caller just made: used when it saw the heads the merge finds, instead of merging a second time. */
  checked?: CheckedMerge | null
}

export interface MergeOutcome {
  sourceHead: string
  targetBefore: string
  /** The target's new head: the merge commit, or the (squashed) source head after a fast-forward. */
  targetAfter: string
  /** Null after a fast-forward, which makes no merge commit. */
  mergeCommitSha: string | null
  squashCommitSha: string | null
  sourceBranchRemoved: boolean
}

const withNewline = (m: string) => (m.endsWith('\n') ? m : `${m}\n`)

async function squashCommit(gitdir: string, req: MergeRequestMerge, c: MergeCheck): Promise<string | null> {
  if (!req.squash || (c.commitsCount < 2 && req.squash.message === undefined)) return null
  return git.writeCommit({
    fs, gitdir,
    commit: {
      message: withNewline(req.squash.message ?? req.squash.title), tree: await treeOf(gitdir, c.sourceHead),
      parent: c.mergeBase ? [c.mergeBase] : [], author: req.squash.author, committer: req.user,
    },
  })
}

/** Merges the source into the target under the repository lock; the target moves by compare-and-swap or not at all. */
export async function mergeBranches(gitdir: string, req: MergeRequestMerge): Promise<MergeOutcome> {
  return withRepoLock(gitdir, async () => {
    const { sourceHead, targetHead } = await heads(gitdir, req)
    if (req.sha !== undefined && req.sha !== sourceHead) throw new GitError('sha_mismatch', `SHA does not match HEAD of source branch: ${sourceHead}`)
    if (req.expectedTargetHead !== undefined && req.expectedTargetHead !== targetHead) {
      throw new GitError('stale', `${req.targetBranch} moved since the merge was checked; check again`)
    }
    const known = req.checked
    const c = known && known.sourceHead === sourceHead && known.targetHead === targetHead
      ? withMethod(known, req.method)
      : await check(gitdir, req, sourceHead, targetHead)
    if (!c.commitsCount) throw new GitError('empty', 'The source branch has no commits the target branch lacks')
    if (c.needRebase) throw new GitError('need_rebase', 'Only a fast-forward merge is allowed: rebase the source branch onto the target first')
    if (!c.tree) throw new MergeConflictError(c.conflicts)
    const squashed = await squashCommit(gitdir, req, c)
    const merged = squashed ?? sourceHead
    const mergeCommitSha = req.method === 'ff'
      ? null
      : await git.writeCommit({ fs, gitdir, commit: { message: withNewline(req.message), tree: c.tree, parent: [targetHead, merged], author: req.user, committer: req.user } })
    const targetAfter = mergeCommitSha ?? merged
    await moveRef(gitdir, `refs/heads/${req.targetBranch}`, targetAfter, targetHead)
    const sourceBranchRemoved = Boolean(req.removeSourceBranch && !req.sourceRef) && (await removeIfUnchanged(gitdir, sourceRefOf(req), sourceHead))
    return { sourceHead, targetBefore: targetHead, targetAfter, mergeCommitSha, squashCommitSha: squashed, sourceBranchRemoved }
  })
}

/** A source branch that moved after the merge keeps its new commits: it is left alone. */
async function removeIfUnchanged(gitdir: string, ref: string, expected: string): Promise<boolean> {
  try {
    await moveRef(gitdir, ref, null, expected)
    return true
  } catch (err) {
    if (err instanceof GitError && err.kind === 'stale') return false
    throw err
  }
}
