// The in-process three-way merge of trees: node-diff3 for text; binary, mode, add/add, modify/delete and rename conflicts detected.
import fs from 'node:fs'
import * as git from '../iso.js'
import { merge } from 'node-diff3'
import { isBinary } from '../diff-text.js'
import { cacheFor } from '../read.js'
import { TreeEditor } from '../tree-edit.js'
import { GitError } from '../types.js'
import { detectRenames, sameLeaf, treeChanges, type Change, type Leaf } from './tree-changes.js'

/** A merged tree, or the paths that could not be merged (then `tree` is null). */
export interface TreeMergeResult { tree: string | null; conflicts: string[] }

/** `current` is what the ours tree holds at the path; `ours` may differ once a rename carried a change to it. */
interface Triple { base: Leaf | null; ours: Leaf | null; theirs: Leaf | null; current: Leaf | null }

const REGULAR = new Set(['100644', '100755'])

async function blob(gitdir: string, leaf: Leaf | null): Promise<Buffer> {
  if (!leaf) return Buffer.alloc(0)
  const { blob } = await git.readBlob({ fs, gitdir, oid: leaf.oid, cache: cacheFor(gitdir) })
  return Buffer.from(blob)
}

function mergedMode(t: Triple): string | null {
  const { base, ours, theirs } = t
  if (ours!.mode === theirs!.mode) return ours!.mode
  if (base && ours!.mode === base.mode) return theirs!.mode
  if (base && theirs!.mode === base.mode) return ours!.mode
  return null
}

/** One path's result: the leaf to keep (null: deleted), or 'conflict'. */
async function resolve(gitdir: string, t: Triple): Promise<Leaf | null | 'conflict'> {
  const { base, ours, theirs } = t
  if (sameLeaf(ours, theirs)) return ours
  if (sameLeaf(ours, base)) return theirs
  if (sameLeaf(theirs, base)) return ours
  if (!ours || !theirs) return 'conflict'
  const mode = mergedMode(t)
  if (mode === null) return 'conflict'
  if (ours.oid === theirs.oid) return { oid: ours.oid, mode }
  // Symlinks and submodules are never merged by content, as in git.
  if (!REGULAR.has(ours.mode) || !REGULAR.has(theirs.mode) || (base && !REGULAR.has(base.mode))) return 'conflict'
  const [o, b, th] = await Promise.all([blob(gitdir, ours), blob(gitdir, base), blob(gitdir, theirs)])
  if ([o, b, th].some(isBinary)) return 'conflict'
  const split = (buf: Buffer) => buf.toString('utf8').split('\n')
  const result = merge(split(o), split(b), split(th), { stringSeparator: '\n' })
  if (result.conflict) return 'conflict'
  return { oid: await git.writeBlob({ fs, gitdir, blob: Buffer.from(result.result.join('\n')) }), mode }
}

function triples(changesO: Change[], changesT: Change[]): Map<string, Triple> {
  const o = new Map(changesO.map((c) => [c.path, c]))
  const t = new Map(changesT.map((c) => [c.path, c]))
  const out = new Map<string, Triple>()
  for (const path of new Set([...o.keys(), ...t.keys()])) {
    const base = (o.get(path) ?? t.get(path))!.before
    const ours = o.has(path) ? o.get(path)!.after : base
    out.set(path, { base, ours, theirs: t.has(path) ? t.get(path)!.after : base, current: ours })
  }
  return out
}

type Side = 'ours' | 'theirs'
const other = (s: Side): Side => (s === 'ours' ? 'theirs' : 'ours')

/** Carries one side's renames across: the other side's edit of the old path follows the file; clashes become conflicts. */
function applyRenames(all: Map<string, Triple>, side: Side, renames: Map<string, string>, otherRenames: Map<string, string>, conflicts: Set<string>) {
  for (const [from, to] of renames) {
    const old = all.get(from)!
    const target = all.get(to)!
    const theirTo = otherRenames.get(from)
    if (theirTo !== undefined) {
      if (side === 'theirs') continue // both renamed `from`: settled while walking the first side
      if (theirTo === to) target.base = old.base
      else conflicts.add(to).add(theirTo)
      continue
    }
    const elsewhere = old[other(side)]
    if (elsewhere === null) conflicts.add(to) // rename/delete
    else if (!sameLeaf(elsewhere, old.base)) {
      if (target[other(side)] !== null) conflicts.add(to)
      target.base = old.base
      target[other(side)] = elsewhere
      old[other(side)] = null
    }
  }
}

/** Merges `theirs` into `ours` against `base` (null: an empty tree), entirely in-process. */
export async function mergeTreesInProcess(gitdir: string, base: string | null, ours: string, theirs: string): Promise<TreeMergeResult> {
  if (ours === theirs || base === theirs) return { tree: ours, conflicts: [] }
  if (base === ours) return { tree: theirs, conflicts: [] }
  const [changesO, changesT] = await Promise.all([treeChanges(gitdir, base, ours), treeChanges(gitdir, base, theirs)])
  const [renamesO, renamesT] = await Promise.all([detectRenames(gitdir, changesO), detectRenames(gitdir, changesT)])
  const all = triples(changesO, changesT)
  const conflicts = new Set<string>()
  applyRenames(all, 'ours', renamesO, renamesT, conflicts)
  applyRenames(all, 'theirs', renamesT, renamesO, conflicts)
  const editor = await TreeEditor.open(gitdir, ours)
  const writes: [string, Leaf][] = []
  for (const [path, t] of [...all].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (conflicts.has(path)) continue
    const r = await resolve(gitdir, t)
    if (r === 'conflict') conflicts.add(path)
    else if (r === null) {
      if (t.current) await editor.remove(path)
    } else if (!sameLeaf(r, t.current)) writes.push([path, r])
  }
  // Removals first, so a file replaced by a directory (or the reverse) on one side has room.
  for (const [path, leaf] of writes) {
    try {
      await editor.set(path, leaf.oid, leaf.mode)
    } catch (err) {
      if (!(err instanceof GitError)) throw err
      conflicts.add(path)
    }
  }
  if (conflicts.size) return { tree: null, conflicts: [...conflicts].sort() }
  return { tree: await editor.write(), conflicts: [] }
}
