// Where two branches meet and what lies between them: merge base, diverged count, the commits of `a..b`.
import fs from 'node:fs'
import * as git from '../iso.js'
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

/** Commit dates may lie by this much (seconds) before a walk by date gives up on finding an older commit behind a newer one. */
const CLOCK_SLOP = 86_400

interface Walked { oid: string; time: number; merge: boolean }

/**
 * `from..to` in-process, bounded by the divergence rather than the history. Every common ancestor lies below a best
 * merge base, so the walk from `to` stops at the bases; what it reached through an older merge that the bases reach
 * too (rare: it then walked to a root) is struck out by a walk down from the bases, by date, until it is older than
 * anything found.
 */
async function rangeInProcess(gitdir: string, from: string, to: string): Promise<Walked[]> {
  const bases: string[] = await git.findMergeBase({ ...opts(gitdir), oids: [from, to] })
  const stop = new Set([...bases, from])
  // Depth-first, parents before children; reversed it is a topological order with children first, which a stable
  // sort by committer date keeps for commits of equal dates.
  const order: Walked[] = []
  const seen = new Set<string>()
  let reachedRoot = false
  const visit = async (id: string) => {
    if (seen.has(id) || stop.has(id)) return
    seen.add(id)
    const { commit } = await git.readCommit({ ...opts(gitdir), oid: id })
    if (!commit.parent.length) reachedRoot = true
    for (const p of commit.parent) await visit(p)
    order.push({ oid: id, time: commit.committer.timestamp, merge: commit.parent.length > 1 })
  }
  await visit(to)
  // Bases are never below a common ancestor, so a walk that strayed below them ran on to a root commit: without one, it did not stray.
  if (!reachedRoot || !bases.length) return order.reverse()
  const found = new Set(order.map((c) => c.oid))
  const oldest = Math.min(...order.map((c) => c.time)) - CLOCK_SLOP
  const queue: { oid: string; time: number }[] = [] // newest first
  const reached = new Set<string>()
  const push = async (oid: string) => {
    if (reached.has(oid)) return
    reached.add(oid)
    const time = (await git.readCommit({ ...opts(gitdir), oid })).commit.committer.timestamp
    const at = queue.findIndex((q) => q.time < time)
    queue.splice(at === -1 ? queue.length : at, 0, { oid, time })
  }
  for (const b of bases) await push(b)
  while (queue.length && queue[0].time >= oldest) {
    const { oid } = queue.shift()!
    found.delete(oid)
    for (const p of (await git.readCommit({ ...opts(gitdir), oid })).commit.parent) await push(p)
  }
  return order.reverse().filter((c) => found.has(c.oid))
}

/** Ids reachable from `to` but not from `from` (`from..to`), newest first by committer date, at most `limit`. */
async function rangeIds(gitdir: string, from: string, to: string, limit: number, noMerges: boolean): Promise<string[]> {
  if (await gitAvailable()) {
    const out = await runGit(gitdir, ['rev-list', `--max-count=${limit}`, ...(noMerges ? ['--no-merges'] : []), to, `^${from}`, '--'])
    return out.split('\n').filter(Boolean)
  }
  const range = await rangeInProcess(gitdir, from, to)
  return range.filter((c) => !noMerges || !c.merge).sort((a, b) => b.time - a.time).slice(0, limit).map((c) => c.oid)
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

/**
 * The commits of `from..to` as commitsBetween lists them and, where git's walk shows it, their merge base: when the
 * list is complete and has a single boundary commit (the one parent outside it), every path from `to` into `from`'s
 * history leaves through that commit, so it is the best common ancestor; one `git merge-base` process fewer.
 */
export async function commitsAndBase(gitdir: string, from: string, to: string, limit = 1000): Promise<{ commits: CommitInfo[]; base?: string }> {
  if (from === to || !(await gitAvailable())) return { commits: await commitsBetween(gitdir, from, to, limit) }
  const lines = (await runGit(gitdir, ['rev-list', `--max-count=${limit}`, '--boundary', to, `^${from}`, '--'])).split('\n').filter(Boolean)
  const ids = lines.filter((l) => !l.startsWith('-'))
  const boundary = lines.filter((l) => l.startsWith('-'))
  const commits = await Promise.all(ids.map((id) => readCommitInfo(gitdir, id)))
  return { commits, base: ids.length && ids.length < limit && boundary.length === 1 ? boundary[0].slice(1) : undefined }
}

/** The non-merge commits of `from..to` oldest first: what a rebase replays. */
export async function replayOrder(gitdir: string, from: string, to: string): Promise<string[]> {
  if (await gitAvailable()) {
    const out = await runGit(gitdir, ['rev-list', '--reverse', '--topo-order', '--no-merges', to, `^${from}`, '--'])
    return out.split('\n').filter(Boolean)
  }
  return (await rangeIds(gitdir, from, to, Number.MAX_SAFE_INTEGER, true)).reverse()
}
