// Where two branches meet and what lies between them: merge base, diverged count, the commits of `a..b`.
import fs from 'node:fs'
import git from 'isomorphic-git'
import { gitAvailable, runGit } from '../exec.js'
import { cacheFor, readCommitInfo } from '../read.js'
import type { CommitInfo } from '../types.js'

const opts = (gitdir: string) => ({ fs, gitdir, cache: cacheFor(gitdir) })

/** The best common ancestor of two commits, or null for unrelated histories. */
export async function mergeBase(gitdir: string, a: string, b: string): Promise<string | null> {
  if (await gitAvailable()) {
    const out = await runGit(gitdir, ['merge-base', a, b]).catch(() => '')
    return out.trim() || null
  }
  const bases: string[] = await git.findMergeBase({ ...opts(gitdir), oids: [a, b] })
  return bases[0] ?? null
}

/** Every commit reachable from `oid` (in-process fallback only: it walks the whole history). */
async function ancestors(gitdir: string, oid: string): Promise<Set<string>> {
  const seen = new Set<string>()
  const queue = [oid]
  while (queue.length) {
    const id = queue.pop()!
    if (seen.has(id)) continue
    seen.add(id)
    const { commit } = await git.readCommit({ ...opts(gitdir), oid: id })
    queue.push(...commit.parent)
  }
  return seen
}

/** Ids reachable from `to` but not from `from` (`from..to`), newest first by committer date, at most `limit`. */
async function rangeIds(gitdir: string, from: string, to: string, limit: number, noMerges: boolean): Promise<string[]> {
  if (await gitAvailable()) {
    const out = await runGit(gitdir, ['rev-list', `--max-count=${limit}`, ...(noMerges ? ['--no-merges'] : []), to, `^${from}`, '--'])
    return out.split('\n').filter(Boolean)
  }
  const exclude = await ancestors(gitdir, from)
  // Depth-first, parents before children; reversed it is a topological order with children first, which a stable
  // sort by committer date keeps for commits of equal dates.
  const order: { oid: string; time: number; merge: boolean }[] = []
  const seen = new Set<string>()
  const visit = async (id: string) => {
    if (seen.has(id) || exclude.has(id)) return
    seen.add(id)
    const { commit } = await git.readCommit({ ...opts(gitdir), oid: id })
    for (const p of commit.parent) await visit(p)
    order.push({ oid: id, time: commit.committer.timestamp, merge: commit.parent.length > 1 })
  }
  await visit(to)
  return order.reverse().filter((c) => !noMerges || !c.merge).sort((a, b) => b.time - a.time).slice(0, limit).map((c) => c.oid)
}

/** How many commits are reachable from `to` and not from `from`: `git rev-list --count from..to`. */
export async function countBetween(gitdir: string, from: string, to: string): Promise<number> {
  if (from === to) return 0
  if (await gitAvailable()) return Number((await runGit(gitdir, ['rev-list', '--count', to, `^${from}`, '--'])).trim())
  return (await rangeIds(gitdir, from, to, Number.MAX_SAFE_INTEGER, false)).length
}

/** GitLab's diverged_commits_count: commits on the target that the source does not have. */
export const divergedCommitsCount = (gitdir: string, sourceHead: string, targetHead: string) => countBetween(gitdir, sourceHead, targetHead)

/** The commits of `from..to` (a merge request's commits: target..source), newest first, at most `limit`. */
export async function commitsBetween(gitdir: string, from: string, to: string, limit = 1000): Promise<CommitInfo[]> {
  const ids = await rangeIds(gitdir, from, to, limit, false)
  return Promise.all(ids.map((id) => readCommitInfo(gitdir, id)))
}

/** The non-merge commits of `from..to` oldest first: what a rebase replays. */
export async function replayOrder(gitdir: string, from: string, to: string): Promise<string[]> {
  if (await gitAvailable()) {
    const out = await runGit(gitdir, ['rev-list', '--reverse', '--topo-order', '--no-merges', to, `^${from}`, '--'])
    return out.split('\n').filter(Boolean)
  }
  return (await rangeIds(gitdir, from, to, Number.MAX_SAFE_INTEGER, true)).reverse()
}
