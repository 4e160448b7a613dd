// Which commits reach which: ancestry of two commits, their merge base, branches merged into a head, refs that contain a
// commit.
import * as git from './iso.js'
import { gitAvailable, runGit } from './exec.js'
import { isoOptions } from './iso-cache.js'
import { HEX40, readObject } from './object-read.js'
import { parseCommit } from './object-parse.js'
import { listBranches, listTags, readRef } from './ref-read.js'
import type { RefInfo } from './types.js'

/**
 * Answers of isAncestor by repository and both full ids: which commits a commit reaches never changes. Bounded by
 * count; forgotten with the repository's cache.
 */
const ancestry = new Map<string, boolean>()
const ANCESTRY_LIMIT = 10_000
/** Commits a walk through cat-file reads before asking `git merge-base`, whose process costs more than a short walk. */
const WALK_LIMIT = 100

export function forgetAncestry(gitdir: string) {
  for (const key of ancestry.keys()) if (key.startsWith(`${gitdir}\0`)) ancestry.delete(key)
}

/** Is `ancestor` reachable from `descendant` (or equal)? */
export async function isAncestor(gitdir: string, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true
  if (!(await gitAvailable())) {
    try {
      return await git.isDescendent({ ...isoOptions(gitdir), oid: descendant, ancestor, depth: -1 })
    } catch {
      return false
    }
  }
  if (!HEX40.test(ancestor) || !HEX40.test(descendant)) return false
  const key = `${gitdir}\0${ancestor}\0${descendant}`
  let answer = ancestry.get(key)
  if (answer !== undefined) return answer
  // A short history or a near ancestor is settled by a walk; a long one by git's commit graph. Exit 1 (not an
  // ancestor) and any failure (a missing object) both answer false.
  answer = (await walkFor(gitdir, ancestor, descendant)) ?? (await runGit(gitdir, ['merge-base', '--is-ancestor', ancestor, descendant]).then(() => true, () => false))
  remember(key, answer)
  return answer
}

/**
 * The names of `branches` (as listed, with their ids) whose commit `head` reaches: answers known before are reused, and
 * the rest come from one `git for-each-ref --merged` of every branch, not from a walk or a merge-base process each.
 */
export async function branchesMergedInto(gitdir: string, head: string, branches: RefInfo[]): Promise<Set<string>> {
  const merged = new Set<string>()
  const unknown: RefInfo[] = []
  for (const b of branches) {
    const known = b.oid === head ? true : ancestry.get(`${gitdir}\0${b.oid}\0${head}`)
    if (known === undefined) unknown.push(b)
    else if (known) merged.add(b.name)
  }
  if (!unknown.length) return merged
  if (!(await gitAvailable()) || !HEX40.test(head)) {
    for (const b of unknown) if (await isAncestor(gitdir, b.oid, head)) merged.add(b.name)
    return merged
  }
  const out = await runGit(gitdir, ['for-each-ref', `--merged=${head}`, '--format=%(objectname)', 'refs/heads/'])
  const reached = new Set(out.split('\n').filter(Boolean))
  for (const b of unknown) {
    let answer: boolean
    if (reached.has(b.oid)) answer = true
    // Not reached: exact only if git read the branch at the id listed, i.e. it has not moved since.
    else if ((await readRef(gitdir, `refs/heads/${b.name}`)) === b.oid) answer = false
    else answer = await isAncestor(gitdir, b.oid, head)
    remember(`${gitdir}\0${b.oid}\0${head}`, answer)
    if (answer) merged.add(b.name)
  }
  return merged
}

/** The branches and tags (names, each sorted) whose commit reaches `oid`: one `git for-each-ref --contains` for all. */
export async function refsContaining(gitdir: string, oid: string, kinds: { branches: boolean; tags: boolean }): Promise<{ branches: string[]; tags: string[] }> {
  if (!(await gitAvailable())) {
    const reaching = async (refs: { name: string; tip: string }[]) => {
      const names: string[] = []
      for (const r of refs) if (await isAncestor(gitdir, oid, r.tip)) names.push(r.name)
      return names
    }
    return {
      branches: kinds.branches ? await reaching((await listBranches(gitdir)).map((b) => ({ name: b.name, tip: b.oid }))) : [],
      tags: kinds.tags ? await reaching((await listTags(gitdir)).map((t) => ({ name: t.name, tip: t.commit }))) : [],
    }
  }
  const patterns = [...(kinds.branches ? ['refs/heads/'] : []), ...(kinds.tags ? ['refs/tags/'] : [])]
  const out = patterns.length ? await runGit(gitdir, ['for-each-ref', `--contains=${oid}`, '--format=%(refname)', ...patterns]) : ''
  const names = (prefix: string) => out.split('\n').filter((r) => r.startsWith(prefix)).map((r) => r.slice(prefix.length)).sort()
  return { branches: names('refs/heads/'), tags: names('refs/tags/') }
}

function remember(key: string, answer: boolean) {
  if (ancestry.size >= ANCESTRY_LIMIT) ancestry.clear()
  ancestry.set(key, answer)
}

/** Walks the history of `descendant` for `ancestor`: true or false once settled, null past WALK_LIMIT commits. */
async function walkFor(gitdir: string, ancestor: string, descendant: string): Promise<boolean | null> {
  const seen = new Set([descendant])
  const queue = [descendant]
  while (queue.length) {
    if (seen.size > WALK_LIMIT) return null
    const obj = await readObject(gitdir, queue.shift()!)
    if (obj?.type !== 'commit') return null
    for (const parent of parseCommit(obj.content).parents) {
      if (parent === ancestor) return true
      if (!seen.has(parent)) {
        seen.add(parent)
        queue.push(parent)
      }
    }
  }
  return false
}

/** The best common ancestor of resolved commits (`git merge-base`), or null when their histories never meet. */
export async function mergeBaseOf(gitdir: string, commits: string[]): Promise<string | null> {
  try {
    return (await runGit(gitdir, ['merge-base', ...commits])).trim() || null
  } catch {
    // git exits 1 with no output when there is no common ancestor.
    return null
  }
}
