// Merge requests from forks: a ref of another repository (the fork's branch) brought with its objects into this one.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import * as git from '../iso.js'
import { gitAvailable, runGit } from '../exec.js'
import { withRepoLock } from '../lock.js'
import { cacheFor, forgetCache, readRef } from '../read.js'
import { GitError } from '../types.js'
import { moveRef } from '../write.js'
import { rebaseBranch, type RebaseOutcome, type RebaseRequest } from './rebase.js'

/** GitLab keeps each merge request's source head in the target repository under this hidden ref. */
export const mergeRequestHeadRef = (iid: number) => `refs/merge-requests/${iid}/head`

async function has(gitdir: string, oid: string): Promise<boolean> {
  try {
    await git.readObject({ fs, gitdir, oid, format: 'deflated', cache: cacheFor(gitdir) })
    return true
  } catch {
    return false
  }
}

/** Copies `oid` and everything it reaches that `to` lacks; an object `to` has is taken to come with all it reaches. */
async function copyMissing(from: string, to: string, oid: string): Promise<void> {
  const stack = [oid]
  const done = new Set<string>()
  while (stack.length) {
    const id = stack.pop()!
    if (done.has(id) || (await has(to, id))) continue
    done.add(id)
    const { type, object } = await git.readObject({ fs, gitdir: from, oid: id, format: 'content', cache: cacheFor(from) })
    if (type === 'commit') {
      const { commit } = await git.readCommit({ fs, gitdir: from, oid: id, cache: cacheFor(from) })
      stack.push(commit.tree, ...commit.parent)
    } else if (type === 'tree') {
      const { tree } = await git.readTree({ fs, gitdir: from, oid: id, cache: cacheFor(from) })
      stack.push(...tree.filter((e) => e.type !== 'commit').map((e) => e.oid))
    } else if (type === 'tag') {
      stack.push((await git.readTag({ fs, gitdir: from, oid: id, cache: cacheFor(from) })).tag.object)
    }
    await git.writeObject({ fs, gitdir: to, type: type as 'blob' | 'tree' | 'commit' | 'tag', object: object as Uint8Array, format: 'content' })
  }
}

/**
 * Points `toRef` of repository `gitdir` (a hidden ref such as mergeRequestHeadRef) at what `fromRef` of repository
 * `fromGitdir` points at, objects included; returns the commit id. Under `gitdir`'s lock, so it never races another write there.
 */
export async function fetchRef(gitdir: string, fromGitdir: string, fromRef: string, toRef: string): Promise<string> {
  return withRepoLock(gitdir, async () => {
    const current = await readRef(gitdir, toRef)
    // Within one repository the objects are there already: only the ref moves.
    if (fromGitdir !== gitdir && (await gitAvailable())) {
      if (!(await readRef(fromGitdir, fromRef))) throw new GitError('not_found', 'Source branch does not exist')
      // A hidden ref of this repository that only this code writes, and we hold the lock: git may move it itself.
      await runGit(gitdir, ['fetch', '--no-tags', '--no-write-fetch-head', '--quiet', fromGitdir, `+${fromRef}:${toRef}`])
      forgetCache(gitdir)
      const oid = await readRef(gitdir, toRef)
      if (!oid) throw new GitError('not_found', 'Source branch does not exist')
      return oid
    }
    const oid = await readRef(fromGitdir, fromRef)
    if (!oid) throw new GitError('not_found', 'Source branch does not exist')
    if (oid === current) return oid
    await copyMissing(fromGitdir, gitdir, oid)
    await moveRef(gitdir, toRef, oid, current)
    return oid
  })
}

/**
 * Rebases a branch of `gitdir` (a fork) onto a branch of another repository (its merge request's target): the target's
 * head is fetched under a temporary hidden ref, which is removed again whatever the outcome.
 */
export async function rebaseOntoRepository(gitdir: string, ontoGitdir: string, req: RebaseRequest): Promise<RebaseOutcome> {
  const temp = `refs/tmp/rebase-onto/${randomUUID()}`
  const onto = await fetchRef(gitdir, ontoGitdir, `refs/heads/${req.onto}`, temp)
  try {
    return await rebaseBranch(gitdir, { ...req, ontoRef: temp })
  } finally {
    await withRepoLock(gitdir, () => moveRef(gitdir, temp, null, onto))
  }
}

/**
 * Runs `fn` while commit `rev` of repository `fromGitdir` is held in `gitdir` under a temporary hidden ref (GitLab's
 * with_tmp_ref), so that both sides of a comparison across a fork network are in one repository; the ref is removed after.
 */
export async function withFetchedCommit<T>(gitdir: string, fromGitdir: string, rev: string, fn: () => Promise<T>): Promise<T> {
  const temp = `refs/tmp/fetched/${randomUUID()}`
  const oid = await fetchRef(gitdir, fromGitdir, rev, temp)
  try {
    return await fn()
  } finally {
    await withRepoLock(gitdir, () => moveRef(gitdir, temp, null, oid))
  }
}
