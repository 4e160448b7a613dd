// GitLab's merge ref: refs/merge-requests/<iid>/merge holds the commit the target branch would get from a merge commit
// now (MergeRequests::MergeToRefService), rewritten whenever the mergeability check sees other heads.
import fs from 'node:fs'
import * as git from '../iso.js'
import { readCommitParts } from '../commit-read.js'
import { withRepoLock } from '../lock.js'
import { readRef } from '../read.js'
import { moveRef, type Signature } from '../write.js'

export const mergeRequestMergeRef = (iid: number) => `refs/merge-requests/${iid}/merge`

export interface MergeRefWrite {
  targetHead: string
  sourceHead: string
  /** The merged tree, as the mergeability check computed it. */
  tree: string
  message: string
  user: Signature
}

/** The merge ref's commit when it merges exactly these heads (target first, as GitLab's merge_ref_head), else null. */
export async function currentMergeRef(gitdir: string, iid: number, targetHead: string, sourceHead: string): Promise<string | null> {
  const oid = await readRef(gitdir, mergeRequestMergeRef(iid))
  if (!oid) return null
  const { parents } = await readCommitParts(gitdir, oid)
  return parents.length === 2 && parents[0] === targetHead && parents[1] === sourceHead ? oid : null
}

/**
 * Points the merge ref at a merge commit of the two heads, under the repository lock and by compare-and-swap; a ref
 * that already merges these heads into this tree stays (the check runs after every push, the commit's date would churn).
 */
export async function writeMergeRef(gitdir: string, iid: number, w: MergeRefWrite): Promise<string> {
  return withRepoLock(gitdir, async () => {
    const ref = mergeRequestMergeRef(iid)
    const before = await readRef(gitdir, ref)
    const kept = await currentMergeRef(gitdir, iid, w.targetHead, w.sourceHead)
    if (kept && (await readCommitParts(gitdir, kept)).tree === w.tree) return kept
    const message = w.message.endsWith('\n') ? w.message : `${w.message}\n`
    const oid = await git.writeCommit({ fs, gitdir, commit: { message, tree: w.tree, parent: [w.targetHead, w.sourceHead], author: w.user, committer: w.user } })
    await moveRef(gitdir, ref, oid, before)
    return oid
  })
}
