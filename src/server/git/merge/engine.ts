// The one entry to three-way merging: git merge-tree when git is installed, the in-process merge otherwise; callers never know which.
import fs from 'node:fs'
import * as git from '../iso.js'
import { treeOf } from '../commit-read.js'
import { gitAvailable } from '../exec.js'
import { cacheFor } from '../iso-cache.js'
import { mergeCommitsCli, mergeTreesCli } from './merge-tree.js'
import { mergeTreesInProcess, type TreeMergeResult } from './three-way.js'

export type { TreeMergeResult } from './three-way.js'

/** Merges tree `theirs` into tree `ours` against tree `base` (null: the empty tree), as a cherry-pick or rebase step does. */
export async function mergeTrees(gitdir: string, base: string | null, ours: string, theirs: string): Promise<TreeMergeResult> {
  if (ours === theirs || base === theirs) return { tree: ours, conflicts: [] }
  if (base === ours) return { tree: theirs, conflicts: [] }
  return (await gitAvailable()) ? mergeTreesCli(gitdir, base, ours, theirs) : mergeTreesInProcess(gitdir, base, ours, theirs)
}

const VIRTUAL = { name: 'merge', email: 'merge@localhost', timestamp: 0, timezoneOffset: 0 }

/**
 * The tree to merge two commits against: their merge base, or with several (a criss-cross history) the bases merged
 * into one virtual base as git's recursive strategy does. Where the bases themselves conflict, git would keep the
 * conflict markers in the virtual base; here the first base is used instead. Undefined for unrelated histories.
 */
async function baseTree(gitdir: string, ours: string, theirs: string, depth = 0): Promise<string | undefined> {
  const bases: string[] = await git.findMergeBase({ fs, gitdir, oids: [ours, theirs], cache: cacheFor(gitdir) })
  if (!bases.length) return undefined
  const first = await treeOf(gitdir, bases[0])
  if (bases.length === 1 || depth > 3) return first
  let acc = bases[0]
  let accTree = first
  for (const next of bases.slice(1)) {
    const inner = await baseTree(gitdir, acc, next, depth + 1)
    const merged = await mergeTreesInProcess(gitdir, inner ?? null, accTree, await treeOf(gitdir, next))
    if (!merged.tree) return first
    accTree = merged.tree
    // Unreferenced: it exists only so the next base can be merged against it.
    acc = await git.writeCommit({ fs, gitdir, commit: { message: 'virtual base\n', tree: accTree, parent: [acc, next], author: VIRTUAL, committer: VIRTUAL } })
  }
  return accTree
}

/** Merges commit `theirs` into commit `ours` at their merge base(s), as `git merge` does. Null when the histories are unrelated. */
export async function mergeCommits(gitdir: string, ours: string, theirs: string): Promise<TreeMergeResult | null> {
  if (await gitAvailable()) return mergeCommitsCli(gitdir, ours, theirs)
  const base = await baseTree(gitdir, ours, theirs)
  if (base === undefined) return null
  const [o, t] = await Promise.all([treeOf(gitdir, ours), treeOf(gitdir, theirs)])
  return mergeTreesInProcess(gitdir, base, o, t)
}
