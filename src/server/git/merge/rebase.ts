// Rebasing a merge request's source branch: its commits replayed one by one onto the target head, then the branch moved by compare-and-swap.
import { readCommitParts, treeOf } from '../commit-read.js'
import { withRepoLock } from '../lock.js'
import { isAncestor, readRef } from '../read.js'
import { GitError } from '../types.js'
import { moveRef, writeExactCommit, type Signature } from '../write.js'
import { mergeTrees } from './engine.js'
import { mergeBase, replayOrder } from './history.js'
import { MergeConflictError } from './merge.js'

export interface RebaseRequest {
  /** The branch to rebase (a merge request's source). */
  branch: string
  /** The branch to rebase onto, or `ontoRef` for a target fetched from another repository. */
  onto: string
  ontoRef?: string
  /** Committer of the replayed commits; authors and messages are kept. */
  committer: Signature
  /** The head the caller expects the branch to have: another head fails with `stale`. */
  expectedHead?: string
}

export interface RebaseOutcome { before: string; after: string; replayed: number; upToDate: boolean }

/** Replays the non-merge commits of `onto..branch` onto `onto`, as `git rebase` does; commits whose change is already there are dropped. */
export async function rebaseBranch(gitdir: string, req: RebaseRequest): Promise<RebaseOutcome> {
  return withRepoLock(gitdir, async () => {
    const ref = `refs/heads/${req.branch}`
    const head = await readRef(gitdir, ref)
    if (!head) throw new GitError('not_found', 'Source branch does not exist')
    const onto = await readRef(gitdir, req.ontoRef ?? `refs/heads/${req.onto}`)
    if (!onto) throw new GitError('not_found', 'Target branch does not exist')
    if (req.expectedHead !== undefined && req.expectedHead !== head) throw new GitError('stale', `${req.branch} moved since the rebase was requested; try again`)
    if (await isAncestor(gitdir, onto, head)) return { before: head, after: head, replayed: 0, upToDate: true }
    if (!(await mergeBase(gitdir, onto, head))) throw new MergeConflictError([])
    let tip = onto
    let tipTree = await treeOf(gitdir, onto)
    let replayed = 0
    for (const oid of await replayOrder(gitdir, onto, head)) {
      const c = await readCommitParts(gitdir, oid)
      const parentTree = c.parents[0] ? await treeOf(gitdir, c.parents[0]) : null
      const merged = await mergeTrees(gitdir, parentTree, tipTree, c.tree)
      if (!merged.tree) throw new MergeConflictError(merged.conflicts)
      if (merged.tree === tipTree) continue
      // The message byte for byte, as git rebase keeps it.
      tip = await writeExactCommit(gitdir, { message: c.message, tree: merged.tree, parent: [tip], author: c.author, committer: req.committer })
      tipTree = merged.tree
      replayed++
    }
    await moveRef(gitdir, ref, tip, head)
    return { before: head, after: tip, replayed, upToDate: false }
  })
}
