// Trees of a commit: the entry at a path, and a tree's entries (recursively when asked).
import { readCommitObject } from './commit-read.js'
import { readObjectOf } from './object-read.js'
import { parseCommit, parseTree } from './object-parse.js'
import type { TreeItem } from './types.js'

async function readTree(gitdir: string, oid: string, base: string): Promise<TreeItem[]> {
  return parseTree((await readObjectOf(gitdir, oid, 'tree')).content, base)
}

/** The entry at `path` in a commit's tree, or null. An empty path is the root tree. */
export async function entryAt(gitdir: string, commit: string, path: string): Promise<{ oid: string; type: 'blob' | 'tree' | 'commit'; mode: string } | null> {
  const c = parseCommit((await readCommitObject(gitdir, commit)).content)
  let current = { oid: c.tree, type: 'tree' as 'blob' | 'tree' | 'commit', mode: '040000' }
  for (const part of path.split('/').filter(Boolean)) {
    if (current.type !== 'tree') return null
    const e = (await readTree(gitdir, current.oid, '')).find((t) => t.name === part)
    if (!e) return null
    current = { oid: e.oid, type: e.type, mode: e.mode }
  }
  return current
}

/** A tree's entries in git's order, each subtree's entries after it when `recursive` (subtrees are read side by side). */
export async function readTreeItems(gitdir: string, treeOid: string, base: string, recursive: boolean): Promise<TreeItem[]> {
  const items = await readTree(gitdir, treeOid, base)
  if (!recursive) return items
  const below = await Promise.all(items.map((e) => (e.type === 'tree' ? readTreeItems(gitdir, e.oid, e.path, true) : [])))
  return items.flatMap((e, i) => [e, ...below[i]])
}
