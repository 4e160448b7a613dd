// Cherry-pick as a real three-way apply: each file the commit changed is merged (node-diff3) onto the target branch.
import fs from 'node:fs'
import git from 'isomorphic-git'
import { merge } from 'node-diff3'
import { isBinary } from './diff-text.js'
import { withRepoLock } from './lock.js'
import { cacheFor, readRef, resolveCommit } from './read.js'
import { TreeEditor } from './tree-edit.js'
import { GitError } from './types.js'
import { moveRef, type Signature } from './write.js'

interface Leaf { oid: string; mode: string }

/** Paths whose blob differs between two trees, descending only into subtrees whose ids differ. */
async function changedPaths(gitdir: string, a: string | null, b: string | null, base = ''): Promise<string[]> {
  if (a === b) return []
  const read = async (oid: string | null) => (oid ? (await git.readTree({ fs, gitdir, oid, cache: cacheFor(gitdir) })).tree : [])
  const [left, right] = await Promise.all([read(a), read(b)])
  const names = new Set([...left.map((e) => e.path), ...right.map((e) => e.path)])
  const out: string[] = []
  for (const name of [...names].sort()) {
    const l = left.find((e) => e.path === name)
    const r = right.find((e) => e.path === name)
    const path = base ? `${base}/${name}` : name
    if (l && r && l.oid === r.oid && l.mode === r.mode) continue
    const lt = l?.type === 'tree' ? l.oid : null
    const rt = r?.type === 'tree' ? r.oid : null
    if (lt || rt) out.push(...(await changedPaths(gitdir, lt, rt, path)))
    if ((l && l.type !== 'tree') || (r && r.type !== 'tree')) out.push(path)
  }
  return out
}

async function blobBytes(gitdir: string, leaf: Leaf): Promise<Buffer> {
  const { blob } = await git.readBlob({ fs, gitdir, oid: leaf.oid, cache: cacheFor(gitdir) })
  return Buffer.from(blob)
}

const same = (a: Leaf | null, b: Leaf | null) => (a === null ? b === null : b !== null && a.oid === b.oid && a.mode === b.mode)

const CONFLICT = 'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.'

async function leafAt(tree: TreeEditor, path: string): Promise<Leaf | null> {
  const e = await tree.get(path)
  return e && e.type !== 'tree' ? { oid: e.oid, mode: e.mode } : null
}

export async function cherryPick(gitdir: string, opts: { sha: string; branch: string; committer: Signature; dryRun?: boolean; message?: string }) {
  return withRepoLock(gitdir, async () => {
    const pick = await resolveCommit(gitdir, opts.sha)
    if (!pick) throw new GitError('not_found', 'Commit Not Found')
    const ref = `refs/heads/${opts.branch}`
    const head = await readRef(gitdir, ref)
    if (!head) throw new GitError('not_found', 'Branch Not Found')
    const { commit } = await git.readCommit({ fs, gitdir, oid: pick, cache: cacheFor(gitdir) })
    const parentTree = commit.parent[0] ? (await git.readCommit({ fs, gitdir, oid: commit.parent[0], cache: cacheFor(gitdir) })).commit.tree : null
    const headTree = (await git.readCommit({ fs, gitdir, oid: head, cache: cacheFor(gitdir) })).commit.tree
    const [base, theirs, ours] = await Promise.all([TreeEditor.open(gitdir, parentTree), TreeEditor.open(gitdir, commit.tree), TreeEditor.open(gitdir, headTree)])
    for (const path of await changedPaths(gitdir, parentTree, commit.tree)) {
      const [b, t, o] = await Promise.all([leafAt(base, path), leafAt(theirs, path), leafAt(ours, path)])
      if (same(o, t)) continue
      if (same(o, b)) {
        if (t) await ours.set(path, t.oid, t.mode)
        else await ours.remove(path)
        continue
      }
      if (!t || !o || !b) throw new GitError('conflict', CONFLICT)
      const [ob, bb, tb] = await Promise.all([blobBytes(gitdir, o), blobBytes(gitdir, b), blobBytes(gitdir, t)])
      // Like git, never merge binary content line by line.
      if ([ob, bb, tb].some(isBinary)) throw new GitError('conflict', CONFLICT)
      const result = merge(ob.toString('utf8').split('\n'), bb.toString('utf8').split('\n'), tb.toString('utf8').split('\n'), { stringSeparator: '\n' })
      if (result.conflict) throw new GitError('conflict', CONFLICT)
      const oid = await git.writeBlob({ fs, gitdir, blob: Buffer.from(result.result.join('\n')) })
      await ours.set(path, oid, t.mode !== b.mode ? t.mode : o.mode)
    }
    const tree = await ours.write()
    if (tree === headTree) throw new GitError('conflict', CONFLICT)
    const message = opts.message ?? `${commit.message.replace(/\n+$/, '')}\n\n(cherry picked from commit ${pick})\n`
    const oid = await git.writeCommit({ fs, gitdir, commit: { message, tree, parent: [head], author: commit.author, committer: opts.committer } })
    if (!opts.dryRun) await moveRef(gitdir, ref, oid, head)
    return { oid, before: head, dryRun: Boolean(opts.dryRun) }
  })
}
