// What changed between two trees, path by path, and which of those changes are renames: the input of every three-way merge.
import fs from 'node:fs'
import * as git from '../iso.js'
import { fingerprint, similarity } from '../diff-text.js'
import { cacheFor } from '../read.js'

export interface Leaf { oid: string; mode: string }
export interface Change { path: string; before: Leaf | null; after: Leaf | null }

export const sameLeaf = (a: Leaf | null, b: Leaf | null) => (a === null ? b === null : b !== null && a.oid === b.oid && a.mode === b.mode)

type RawEntry = { path: string; oid: string; mode: string; type: string }

async function entries(gitdir: string, oid: string | null): Promise<Map<string, RawEntry>> {
  if (!oid) return new Map()
  const { tree } = await git.readTree({ fs, gitdir, oid, cache: cacheFor(gitdir) })
  return new Map(tree.map((e) => [e.path, e]))
}

/** Leaves (files, symlinks, submodules) that differ between trees `a` and `b`; identical subtrees are never read. */
export async function treeChanges(gitdir: string, a: string | null, b: string | null, base = ''): Promise<Change[]> {
  if (a === b) return []
  const [left, right] = await Promise.all([entries(gitdir, a), entries(gitdir, b)])
  const out: Change[] = []
  for (const name of [...new Set([...left.keys(), ...right.keys()])].sort()) {
    const l = left.get(name) ?? null
    const r = right.get(name) ?? null
    if (l && r && l.oid === r.oid && l.mode === r.mode) continue
    const path = base ? `${base}/${name}` : name
    const lt = l?.type === 'tree' ? l.oid : null
    const rt = r?.type === 'tree' ? r.oid : null
    if (lt || rt) out.push(...(await treeChanges(gitdir, lt, rt, path)))
    const leaf = (e: RawEntry | null) => (e && e.type !== 'tree' ? { oid: e.oid, mode: e.mode } : null)
    if (leaf(l) || leaf(r)) out.push({ path, before: leaf(l), after: leaf(r) })
  }
  return out
}

const isFile = (l: Leaf | null): l is Leaf => l !== null && (l.mode === '100644' || l.mode === '100755')

/** Past this many delete x add pairs only exact renames are looked for, as git gives up past its rename limit. */
const PAIR_LIMIT = 250_000

/**
 * Renames within one side's changes, old path -> new path: exact moves first, then the most similar pair at git's
 * default 50% score. Deleted and added paths only; a file that changed in place is never a rename source.
 */
export async function detectRenames(gitdir: string, changes: Change[]): Promise<Map<string, string>> {
  const gone = changes.filter((c) => isFile(c.before) && c.after === null)
  const added = changes.filter((c) => c.before === null && isFile(c.after))
  const renames = new Map<string, string>()
  if (!gone.length || !added.length) return renames
  const taken = new Set<string>()
  const byOid = new Map<string, Change[]>()
  for (const c of added) byOid.set(c.after!.oid, [...(byOid.get(c.after!.oid) ?? []), c])
  for (const c of gone) {
    const match = byOid.get(c.before!.oid)?.find((a) => !taken.has(a.path))
    if (match) {
      renames.set(c.path, match.path)
      taken.add(match.path)
    }
  }
  const restGone = gone.filter((c) => !renames.has(c.path))
  const restAdded = added.filter((c) => !taken.has(c.path))
  if (!restGone.length || !restAdded.length || restGone.length * restAdded.length > PAIR_LIMIT) return renames
  const prints = new Map<string, ReturnType<typeof fingerprint>>()
  const print = async (oid: string) => {
    let p = prints.get(oid)
    if (!p) {
      const { blob } = await git.readBlob({ fs, gitdir, oid, cache: cacheFor(gitdir) })
      p = fingerprint(Buffer.from(blob))
      prints.set(oid, p)
    }
    return p
  }
  const scored: { from: string; to: string; score: number }[] = []
  for (const g of restGone) {
    for (const a of restAdded) {
      const score = similarity(await print(g.before!.oid), await print(a.after!.oid))
      if (score >= 0.5) scored.push({ from: g.path, to: a.path, score })
    }
  }
  scored.sort((x, y) => y.score - x.score || x.from.localeCompare(y.from))
  for (const s of scored) {
    if (renames.has(s.from) || taken.has(s.to)) continue
    renames.set(s.from, s.to)
    taken.add(s.to)
  }
  return renames
}
