// Diffs of a commit against its first parent: unified hunks, modes, new/renamed/deleted flags and line stats.
import fs from 'node:fs'
import { structuredPatch } from 'diff'
import git from 'isomorphic-git'
import { gitAvailable, runGit } from './exec.js'
import { cacheFor, readCommitInfo } from './read.js'
import type { DiffFile } from './types.js'

/** GitLab prints a missing side's mode as `0`, not git's `000000`. */
const gitlabMode = (mode: string) => (/^0+$/.test(mode) ? '0' : mode)

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'

export async function commitDiff(gitdir: string, oid: string): Promise<DiffFile[]> {
  const info = await readCommitInfo(gitdir, oid)
  const parent = info.parents[0] ?? null
  return (await gitAvailable()) ? diffWithGit(gitdir, parent, oid) : diffInProcess(gitdir, parent, oid)
}

export async function diffStats(files: DiffFile[]) {
  const additions = files.reduce((n, f) => n + f.additions, 0)
  const deletions = files.reduce((n, f) => n + f.deletions, 0)
  return { additions, deletions, total: additions + deletions }
}

/** Raw (-z, exact paths) and patch output in one run; entries and patches come in the same order. */
async function diffWithGit(gitdir: string, parent: string | null, oid: string): Promise<DiffFile[]> {
  const out = await runGit(gitdir, ['diff', '-M', '--no-color', '--no-ext-diff', '--full-index', '--no-abbrev', '--raw', '-p', '-z', parent ?? EMPTY_TREE, oid])
  const split = out.indexOf('\0\0diff --git ')
  const rawPart = split >= 0 ? out.slice(0, split) : out.replace(/\0+$/, '')
  const patchPart = split >= 0 ? out.slice(split + 2) : ''
  const fields = rawPart.split('\0')
  const entries: Omit<DiffFile, 'diff' | 'additions' | 'deletions'>[] = []
  for (let i = 0; i < fields.length; ) {
    const head = fields[i++]
    if (!head.startsWith(':')) continue
    const [aMode, bMode, , , status] = head.slice(1).split(' ')
    const renamed = status.startsWith('R') || status.startsWith('C')
    const oldPath = fields[i++]
    const newPath = renamed ? fields[i++] : oldPath
    entries.push({
      oldPath, newPath, aMode: gitlabMode(aMode), bMode: gitlabMode(bMode), newFile: status === 'A', deletedFile: status === 'D', renamedFile: status.startsWith('R'),
    })
  }
  const patches = patchPart ? patchPart.split(/^(?=diff --git )/m) : []
  return entries.map((e, i) => {
    const patch = patches[i] ?? ''
    const start = patch.search(/^(@@|Binary files )/m)
    const diff = start >= 0 ? patch.slice(start) : ''
    let additions = 0
    let deletions = 0
    for (const line of diff.split('\n')) {
      if (line.startsWith('+')) additions++
      else if (line.startsWith('-')) deletions++
    }
    return { ...e, diff, additions, deletions }
  })
}

interface Side { oid: string; mode: string }

async function flatten(gitdir: string, commit: string | null): Promise<Map<string, Side>> {
  const files = new Map<string, Side>()
  if (!commit) return files
  const cache = cacheFor(gitdir)
  await git.walk({
    fs, gitdir, cache, trees: [git.TREE({ ref: commit })],
    map: async (path, [entry]) => {
      if (!entry || path === '.') return true
      const type = await entry.type()
      if (type === 'blob' || type === 'commit') files.set(path, { oid: await entry.oid(), mode: (await entry.mode()).toString(8).padStart(6, '0') })
      return true
    },
  })
  return files
}

async function text(gitdir: string, side: Side | undefined): Promise<string | null> {
  if (!side) return ''
  const { blob } = await git.readBlob({ fs, gitdir, oid: side.oid, cache: cacheFor(gitdir) })
  const buf = Buffer.from(blob)
  return buf.subarray(0, 8000).includes(0) ? null : buf.toString('utf8')
}

/** Without a git command line: tree comparison, exact-content rename detection, hunks from the diff package. */
async function diffInProcess(gitdir: string, parent: string | null, oid: string): Promise<DiffFile[]> {
  const before = await flatten(gitdir, parent)
  const after = await flatten(gitdir, oid)
  const added = [...after.keys()].filter((p) => !before.has(p))
  const removed = [...before.keys()].filter((p) => !after.has(p))
  const renames = new Map<string, string>()
  for (const to of added) {
    const from = removed.find((p) => before.get(p)!.oid === after.get(to)!.oid && ![...renames.values()].includes(p))
    if (from) renames.set(to, from)
  }
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort()
  const out: DiffFile[] = []
  for (const path of paths) {
    const a = before.get(path)
    const b = after.get(path)
    if (a && b && a.oid === b.oid && a.mode === b.mode) continue
    if (!b && [...renames.values()].includes(path)) continue
    const from = b && !a ? renames.get(path) : undefined
    const oldSide = from ? before.get(from) : a
    const oldPath = from ?? path
    const [oldText, newText] = await Promise.all([text(gitdir, oldSide), text(gitdir, b)])
    let diff = ''
    let additions = 0
    let deletions = 0
    if (oldText === null || newText === null) diff = `Binary files a/${oldPath} and b/${path} differ\n`
    else if (oldText !== newText) {
      const patch = structuredPatch(oldPath, path, oldText, newText, '', '', { context: 3 })
      for (const h of patch.hunks) {
        const oldRange = h.oldLines === 1 ? `${h.oldStart}` : `${h.oldLines === 0 ? h.oldStart : h.oldStart},${h.oldLines}`
        const newRange = h.newLines === 1 ? `${h.newStart}` : `${h.newLines === 0 ? h.newStart : h.newStart},${h.newLines}`
        diff += `@@ -${oldRange} +${newRange} @@\n${h.lines.join('\n')}\n`
        additions += h.lines.filter((l) => l.startsWith('+')).length
        deletions += h.lines.filter((l) => l.startsWith('-')).length
      }
    }
    out.push({
      oldPath, newPath: path, aMode: oldSide ? oldSide.mode : '0', bMode: b ? b.mode : '0',
      newFile: !oldSide, deletedFile: !b, renamedFile: Boolean(from), diff, additions, deletions,
    })
  }
  return out
}
