// Commit history pages: the git command line when present (skip, path and date filters are cheap there), else isomorphic-git.
import fs from 'node:fs'
import * as git from './iso.js'
import { ByteCache } from '../../core/byte-cache.js'
import { fromStrictIso } from './dates.js'
import { gitAvailable, runGit } from './exec.js'
import { looseCommitParents } from './loose-commit.js'
import { cacheFor, entryAt, parseTrailers, readCommitInfo } from './read.js'
import type { CommitInfo } from './types.js'

export interface LogQuery {
  /** Commit ids to start from (a branch head, or every ref for `all`). */
  from: string[]
  /** Every branch and tag instead of `from`. */
  all?: boolean
  since?: string
  until?: string
  path?: string
  author?: string
  firstParent?: boolean
  topo?: boolean
  offset: number
  limit: number
}

const FORMAT = '%x1e%H%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B'

/** Paths are file paths, not pathspecs (`*`, `:(exclude)`): the in-process walk compares them literally too. */
const LITERAL = { env: { GIT_LITERAL_PATHSPECS: '1' } }

// git reads no date from 2100 on, not even `@<seconds>` (it takes them as "now"), and none before 1970 (`@0` is unset).
const GIT_FIRST_DATE = 1
const GIT_LAST_DATE = 4102444799

/**
 * since/until as git's `@<seconds>`, or 'none' when no commit can match. git's own parser would read years past 2099 as
 * "now" and `2024` as a time of day, so the instant is taken from Date.parse (what the contract validated) and bounds
 * outside git's range are settled here: commits dated after 2099 are treated as nonexistent.
 */
function dateBounds(q: LogQuery): { since?: string; until?: string } | 'none' {
  const since = q.since ? Math.ceil(Date.parse(q.since) / 1000) : -Infinity
  const until = q.until ? Math.floor(Date.parse(q.until) / 1000) : Infinity
  if (until < GIT_FIRST_DATE || since > GIT_LAST_DATE || since > until) return 'none'
  return {
    since: since >= GIT_FIRST_DATE ? `@${since}` : undefined,
    until: until <= GIT_LAST_DATE ? `@${until}` : undefined,
  }
}

function filterArgs(q: LogQuery, dates: { since?: string; until?: string }): string[] {
  const args: string[] = []
  if (dates.since) args.push(`--since=${dates.since}`)
  if (dates.until) args.push(`--until=${dates.until}`)
  if (q.author) args.push(`--author=${q.author}`, '--regexp-ignore-case', '--fixed-strings')
  if (q.firstParent) args.push('--first-parent')
  if (q.topo) args.push('--topo-order')
  return args
}

/**
 * An unfiltered count reads the reachability bitmap the housekeeping writes: measured on 20,000 commits, 10 ms instead
 * of 30-70 ms for the walk (the first page of a history waits for its count). Filters need the walk.
 */
function countArgs(q: LogQuery, dates: { since?: string; until?: string }): string[] {
  const args = filterArgs({ ...q, topo: false }, dates)
  return args.length || q.path ? args : ['--use-bitmap-index']
}

function parseLog(out: string): CommitInfo[] {
  return out.split('\x1e').filter(Boolean).map((rec) => {
    const [id, parents, an, ae, ad, cn, ce, cd, message] = rec.split('\0')
    const msg = message.replace(/\n$/, '')
    return {
      id, parents: parents ? parents.split(' ') : [], message: msg, authorName: an, authorEmail: ae, authoredDate: fromStrictIso(ad),
      committerName: cn, committerEmail: ce, committedDate: fromStrictIso(cd), trailers: parseTrailers(msg),
    }
  })
}

const counts = new Map<string, number>()

/**
 * Pages read before: a list asked again (another user, the response cache emptied by any write) spawns no git, which
 * from the server costs more than git's walk of one page. Bounded by bytes (two per character, a little per commit).
 */
const pages = new ByteCache<CommitInfo[]>(4 * 1024 * 1024, 512 * 1024, (cs) => cs.reduce((n, c) => n + 256 + 2 * (c.message.length + c.authorName.length + c.committerName.length), 0))

/** What git is asked for a query, or null when no commit can match it. */
async function gitQuery(gitdir: string, q: LogQuery, keyAll = true) {
  const dates = dateBounds(q)
  if (dates === 'none') return null
  const revs = q.all ? ['--all'] : q.from
  const paths = q.path ? ['--', q.path] : ['--']
  // Totals and pages of one history never change, so they are cached by the ids and filters that define them (a
  // page of `--all` only by the refs listed at some other moment: not kept). Listing those refs reads them through
  // isomorphic-git, which the API's pages, keeping nothing of `--all`, skip.
  const key = q.all && !keyAll ? null : historyKey(gitdir, q, q.all ? await allRefIds(gitdir) : q.from)
  return { dates, revs, paths, key }
}

const historyKey = (gitdir: string, q: LogQuery, from: string[]) => JSON.stringify([gitdir, from, q.since, q.until, q.path, q.author, q.firstParent])
type GitQuery = NonNullable<Awaited<ReturnType<typeof gitQuery>>>

/** `limit` commits from `offset`, through one `git log` (or the page cache). */
function readPage(gitdir: string, q: LogQuery, g: GitQuery, offset: number, limit: number): Promise<CommitInfo[]> {
  const pageKey = q.all || g.key === null ? null : `${g.key}\0${q.topo ? 'topo' : 'date'}\0${offset}\0${limit}`
  const known = pageKey === null ? undefined : pages.get(pageKey)
  if (known) return Promise.resolve(known)
  // --no-follow: a user's log.follow would make git log, and not the count beside it, follow one file's renames.
  return runGit(gitdir, ['log', '--no-follow', `--format=${FORMAT}`, `--skip=${offset}`, '-n', String(limit), ...filterArgs(q, g.dates), ...g.revs, ...g.paths], LITERAL).then((out) => {
    const commits = parseLog(out)
    if (pageKey !== null) pages.set(pageKey, commits)
    return commits
  })
}

/** A page and the number of commits in the whole history (which a first page of a long history waits for). */
export async function logCommits(gitdir: string, q: LogQuery): Promise<{ commits: CommitInfo[]; total: number }> {
  if (!q.from.length && !q.all) return { commits: [], total: 0 }
  if (!(await gitAvailable())) return logInProcess(gitdir, q)
  const g = await gitQuery(gitdir, q)
  if (!g) return { commits: [], total: 0 }
  const total = g.key === null ? undefined : counts.get(g.key)
  const count = total === undefined
    ? runGit(gitdir, ['rev-list', '--count', ...countArgs(q, g.dates), ...g.revs, ...g.paths], LITERAL).then((s) => Number(s.trim()))
    : Promise.resolve(total)
  const [commits, n] = await Promise.all([readPage(gitdir, q, g, q.offset, q.limit), count])
  if (counts.size > 10_000) counts.clear()
  if (g.key !== null) counts.set(g.key, n)
  return { commits: [...commits], total: n }
}

/** GitLab counts a list up to this many rows (Kaminari's MAX_COUNT_LIMIT) and sends no total above it. */
export const COUNT_LIMIT = 10_000

/**
 * Counts of API pages, at most COUNT_LIMIT + 1, by the start ids and filters (and order) that define them: a history
 * never changes. Bounded by the characters of their keys (the values are small), least recently used out.
 */
const cappedCounts = new ByteCache<{ n: number; size: number }>(2 * 1024 * 1024, 16 * 1024, (v) => v.size)

/**
 * How many commits the page's own filters select, stopped one past COUNT_LIMIT: the same walk as the page's git log
 * (revisions, dates, author, first parent, order, path), so the total is what a client collects page by page. An
 * unfiltered count reads the reachability bitmap where there is one.
 */
function runCount(gitdir: string, q: LogQuery, g: GitQuery): Promise<number> {
  const filters = filterArgs(q, g.dates)
  const unfiltered = !q.path && filters.every((a) => a === '--topo-order')
  const args = ['rev-list', '--count', `--max-count=${COUNT_LIMIT + 1}`, ...(unfiltered ? ['--use-bitmap-index'] : filters), ...g.revs, ...g.paths]
  return runGit(gitdir, args, LITERAL).then((out) => Number(out.trim()))
}

const countKey = (historyKey: string, q: LogQuery) => `${historyKey}\0${q.topo ? 'topo' : 'date'}`
const capped = (n: number) => Math.min(COUNT_LIMIT + 1, n)

/** How many commits a push may add above a counted one for the count to be derived from it. */
const DERIVED_DEPTH = 64

/** Commits a push added above a counted one (newest first, each with one parent but the last), and that count. */
interface Grown { chain: string[]; below: number }

/**
 * What a history that a push grew from one counted before holds, read from the commits it added (their loose objects)
 * without a git process: 'over' when a merge among them has a parent counted past COUNT_LIMIT (with no filter, a merge
 * counts at least as many as each parent); null when a commit is packed, a merge settles nothing, dates cut the walk
 * short, or no commit within DERIVED_DEPTH below was counted. With a path or an author filter only commits with one
 * parent are followed (git may follow one parent of a merge there).
 */
async function grownFrom(gitdir: string, q: LogQuery): Promise<Grown | 'over' | null> {
  if (q.all || q.from.length !== 1 || q.since || q.until) return null
  const filtered = Boolean(q.path || q.author)
  const counted = (oid: string) => cappedCounts.get(countKey(historyKey(gitdir, q, [oid]), q))?.n
  const chain: string[] = []
  for (let oid = q.from[0]; chain.length < DERIVED_DEPTH; ) {
    const parents = await looseCommitParents(gitdir, oid)
    if (!parents) return null
    chain.push(oid)
    if (!parents.length) return { chain, below: 0 }
    if (parents.length > 1 && (filtered || !q.firstParent)) {
      return !filtered && parents.some((p) => (counted(p) ?? 0) > COUNT_LIMIT) ? 'over' : null
    }
    const below = counted(parents[0])
    if (below !== undefined) return { chain, below }
    oid = parents[0]
  }
  return null
}

/**
 * With a path or author filter, which of the added commits count is read off the first page: git starts its walk at
 * the newest and has one commit queued at a time along them, so those it lists come first, before any older one. Null
 * when the page is all of them and full (more may follow).
 */
function grownByPage(grown: Grown, read: CommitInfo[], limit: number): number | null {
  const added = new Set(grown.chain)
  let shown = 0
  for (const c of read) {
    if (!added.has(c.id)) return capped(grown.below + shown)
    shown++
  }
  return read.length <= limit ? capped(grown.below + shown) : null
}

/**
 * A page, whether another follows, and the total when it is at most COUNT_LIMIT, as GitLab pages commits: the page
 * (one commit more than it, to know whether a next one follows) and the count, when it is neither kept nor derived from
 * a counted parent, are two git processes run side by side, so a first page waits for the slower of the two, not both.
 */
export async function logPage(gitdir: string, q: LogQuery): Promise<{ commits: CommitInfo[]; hasNextPage: boolean; total?: number }> {
  if (!q.from.length && !q.all) return { commits: [], hasNextPage: false, total: 0 }
  const shown = (n: number) => (n <= COUNT_LIMIT ? n : undefined)
  if (!(await gitAvailable())) {
    const { commits, total } = await logInProcess(gitdir, q)
    return { commits, hasNextPage: total > q.offset + q.limit, total: shown(total) }
  }
  const g = await gitQuery(gitdir, q, false)
  if (!g) return { commits: [], hasNextPage: false, total: 0 }
  const page = readPage(gitdir, q, g, q.offset, q.limit + 1)
  page.catch(() => {}) // awaited below, after the loose objects are read
  const key = g.key === null ? null : countKey(g.key, q)
  let known = key === null ? undefined : cappedCounts.get(key)?.n
  const grown = known === undefined && key !== null ? await grownFrom(gitdir, q) : null
  if (grown === 'over') known = COUNT_LIMIT + 1
  else if (grown && !q.path && !q.author) known = capped(grown.below + grown.chain.length)
  const byPage = known === undefined && grown !== null && grown !== 'over' && q.offset === 0 ? grown : null
  const count = known !== undefined ? Promise.resolve(known) : byPage ? Promise.resolve(null) : runCount(gitdir, q, g)
  const [read, counted] = await Promise.all([page, count])
  const n = counted ?? (byPage && grownByPage(byPage, read, q.limit)) ?? (await runCount(gitdir, q, g))
  if (key !== null) cappedCounts.set(key, { n, size: 2 * key.length + 64 })
  return { commits: read.slice(0, q.limit), hasNextPage: read.length > q.limit, total: shown(n) }
}

async function logInProcess(gitdir: string, q: LogQuery) {
  const since = q.since ? Date.parse(q.since) : null
  const until = q.until ? Date.parse(q.until) : null
  const seen = new Set<string>()
  const all: { oid: string; time: number }[] = []
  for (const ref of q.all ? await allRefIds(gitdir) : q.from) {
    // Not git.log's `filepath`: it throws for a path missing at the tip and stops where the path was absent.
    const entries = await git.log({ fs, gitdir, ref, cache: cacheFor(gitdir) })
    for (const e of entries) {
      if (seen.has(e.oid)) continue
      seen.add(e.oid)
      const t = e.commit.committer.timestamp * 1000
      if ((since !== null && t < since) || (until !== null && t > until)) continue
      if (q.author && !`${e.commit.author.name} <${e.commit.author.email}>`.toLowerCase().includes(q.author.toLowerCase())) continue
      if (q.path && !(await touchesPath(gitdir, e.oid, e.commit.parent, q.path))) continue
      all.push({ oid: e.oid, time: t })
    }
  }
  all.sort((a, b) => b.time - a.time)
  const page = all.slice(q.offset, q.offset + q.limit)
  return { commits: await Promise.all(page.map((c) => readCommitInfo(gitdir, c.oid))), total: all.length }
}

export async function countCommits(gitdir: string, ref: string): Promise<number> {
  if (await gitAvailable()) {
    try {
      return Number((await runGit(gitdir, ['rev-list', '--count', ref, '--'])).trim())
    } catch {
      return 0
    }
  }
  try {
    return (await git.log({ fs, gitdir, ref, cache: cacheFor(gitdir) })).length
  } catch {
    return 0
  }
}

/** Whether a commit changed `path` (a file or a directory) against every parent, as `git log -- path` decides. */
async function touchesPath(gitdir: string, oid: string, parents: string[], path: string): Promise<boolean> {
  const key = (e: Awaited<ReturnType<typeof entryAt>>) => (e ? `${e.mode} ${e.oid}` : null)
  const mine = key(await entryAt(gitdir, oid, path))
  if (!parents.length) return mine !== null
  for (const parent of parents) if (key(await entryAt(gitdir, parent, path)) === mine) return false
  return true
}

/** Ids of every branch and tag: what `--all` walks from. */
async function allRefIds(gitdir: string): Promise<string[]> {
  const ids: string[] = []
  for (const ref of [...(await git.listBranches({ fs, gitdir })).map((b) => `refs/heads/${b}`), ...(await git.listTags({ fs, gitdir })).map((t) => `refs/tags/${t}`)]) {
    try {
      ids.push(await git.resolveRef({ fs, gitdir, ref }))
    } catch {
      // a ref deleted while listing
    }
  }
  return ids
}

/** The newest commit reachable from `from` that touched `path`, or null. */
export async function lastCommitForPath(gitdir: string, from: string, path: string): Promise<string | null> {
  if (await gitAvailable()) {
    const out = await runGit(gitdir, ['log', '-1', '--format=%H', from, '--', path], LITERAL).catch(() => '')
    return out.trim() || null
  }
  try {
    const [entry] = await git.log({ fs, gitdir, ref: from, filepath: path, depth: 1, cache: cacheFor(gitdir) })
    return entry?.oid ?? null
  } catch {
    return null
  }
}
