// The one entry to three-way merging: git merge-tree when git is installed, the in-process merge otherwise; callers never know which.
import fs from 'node:fs'
import git from 'isomorphic-git'
import { gitAvailable } from '../exec.js'
import { cacheFor } from '../read.js'
import { mergeCommitsCli, mergeTreesCli } from './merge-tree.js'
import { mergeTreesInProcess, type TreeMergeResult } from './three-way.js'

export type { TreeMergeResult } from './three-way.js'

export const treeOf = async (gitdir: string, commit: string) => (await git.readCommit({ fs, gitdir, oid: commit, cache: cacheFor(gitdir) })).commit.tree

/** Merges tree `theirs` into tree `ours` against tree `base` (null: the empty tree), as a cherry-pick or rebase step does. */
export async function mergeTrees(gitdir: string, base: string | null, ours: string, theirs: string): Promise<TreeMergeResult> {
  if (ours === theirs || base === theirs) return { tree: ours, conflicts: [] }
  if (base === ours) return { tree: theirs, conflicts: [] }
  return (await gitAvailable()) ? mergeTreesCli(gitdir, base, ours, theirs) : mergeTreesInProcess(gitdir, base, ours, theirs)
}

/**
 * Merges commit `theirs` into commit `ours` at their merge base, as `git merge` does. Null when the histories are
 * unrelated. In-process, a criss-cross history uses its first merge base where git would merge the bases first.
 */
export async function mergeCommits(gitdir: string, ours: string, theirs: string): Promise<TreeMergeResult | null> {
  if (await gitAvailable()) return mergeCommitsCli(gitdir, ours, theirs)
  const [base] = await git.findMergeBase({ fs, gitdir, oids: [ours, theirs], cache: cacheFor(gitdir) })
  if (!base) return null
  const [b, o, t] = await Promise.all([treeOf(gitdir, base), treeOf(gitdir, ours), treeOf(gitdir, theirs)])
  return mergeTreesInProcess(gitdir, b, o, t)
}
