// Diffs of a commit against its first parent: unified hunks, modes, new/renamed/deleted flags and line stats.
import fs from 'node:fs'
import * as git from './iso.js'
import { cachedDiff } from './diff-cache.js'
import { parseNumstat, parseRaw, ZERO_OID, type DiffEntryHead } from './diff-parse.js'
import { DiffOutputReader, GrowingDiff, wholeDiff, type Diff } from './diff-stream.js'
import { fingerprint, isBinary, similarity, unifiedHunks, type Fingerprint } from './diff-text.js'
import { gitAvailable, GitOutputTooLarge, runGit, streamGit } from './exec.js'
import { cacheFor, readCommitInfo } from './read.js'
import type { DiffFile } from './types.js'

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
const RENAME_LIMIT = 1000

/**
 * The diff of a commit against its first parent. It depends on nothing but the commit (objects are content-addressed),
 * so it is cached by commit id and engine; `gitdir` only says where to read it the first time.
 */
async function diffOfCommit(gitdir: string, oid: string): Promise<Diff> {
  const withGit = await gitAvailable()
  const compute = () => {
    const parent = readCommitInfo(gitdir, oid).then((info) => info.parents[0] ?? null)
    return withGit ? diffWithGit(gitdir, parent.then((p) => [p ?? EMPTY_TREE, oid])) : wholeDiff(parent.then((p) => diffInProcess(gitdir, p, oid)))
  }
  // Only a full object id names one commit forever; a ref or a short id is read afresh.
  return FULL_OID.test(oid) ? cachedDiff(`${withGit ? 'git' : 'in-process'}:${oid}`, compute) : compute()
}

const FULL_OID = /^[0-9a-f]{40}$/

/** Every file of a commit's diff. */
export const commitDiff = async (gitdir: string, oid: string) => (await diffOfCommit(gitdir, oid)).all

/** Files [offset, offset + limit) of a commit's diff and how many it has, as soon as git has written them. */
export const commitDiffPage = async (gitdir: string, oid: string, offset: number, limit: number) => (await diffOfCommit(gitdir, oid)).page(offset, limit)

/** The diff between two commits (a merge request's `base..head`), cached by both ids and engine like commitDiff. */
export async function diffBetween(gitdir: string, from: string, to: string): Promise<readonly DiffFile[]> {
  const withGit = await gitAvailable()
  const compute = () => (withGit ? diffWithGit(gitdir, Promise.resolve([from, to])) : wholeDiff(diffInProcess(gitdir, from, to)))
  return (FULL_OID.test(from) && FULL_OID.test(to) ? cachedDiff(`${withGit ? 'git' : 'in-process'}:${from}..${to}`, compute) : compute()).all
}

export async function diffStats(files: readonly DiffFile[]) {
  const additions = files.reduce((n, f) => n + f.additions, 0)
  const deletions = files.reduce((n, f) => n + f.deletions, 0)
  return { additions, deletions, total: additions + deletions }
}

const DIFF_OPTIONS = ['-M', '--no-color', '--no-ext-diff', '--full-index', '--no-abbrev']

/**
 * The most patch text one diff may bring into memory; past it, the files not yet read are shown without hunks, as
 * GitLab shows the files of a diff past its limits.
 */
const PATCH_LIMIT = 16 * 1024 * 1024

/** Raw (-z, exact paths) and patch output in one run, read as it comes; entries and patches come in the same order. */
function diffWithGit(gitdir: string, range: Promise<string[]>): Diff {
  const diff = new GrowingDiff()
  const reader = new DiffOutputReader(diff)
  range
    .then((r) => streamGit(gitdir, ['diff', ...DIFF_OPTIONS, '--raw', '-p', '-z', ...r], (text) => reader.push(text), { maxBytes: PATCH_LIMIT })
      .then(() => reader.end(), async (err) => {
        if (!(err instanceof GitOutputTooLarge)) throw err
        reader.endWithout(await diffWithoutPatches(gitdir, r))
      }))
    .catch((err) => diff.fail(err))
  return diff
}

/**
 * A diff too large to hold: every file with its flags and line counts (from --numstat, one short line a file) and an
 * empty `diff`, which is how GitLab answers for diffs past its limits.
 */
async function diffWithoutPatches(gitdir: string, range: string[]): Promise<DiffFile[]> {
  const [raw, numstat] = await Promise.all([
    runGit(gitdir, ['diff', ...DIFF_OPTIONS, '--raw', '-z', ...range]),
    runGit(gitdir, ['diff', ...DIFF_OPTIONS, '--numstat', '-z', ...range]),
  ])
  const counts = parseNumstat(numstat)
  const entries = parseRaw(raw.replace(/\0+$/, ''))
  // A type change is one numstat line but two entries: the old side's deletions, then the new side's additions.
  const typeChange = (a: DiffEntryHead | undefined, b: DiffEntryHead | undefined) => !!a && !!b && a.deletedFile && b.newFile && a.oldPath === b.oldPath
  let line = 0
  return entries.map((e, i) => {
    const [added, deleted] = counts[line] ?? [0, 0]
    if (typeChange(e, entries[i + 1])) return { ...e, diff: '', additions: 0, deletions: deleted }
    line++
    return typeChange(entries[i - 1], e) ? { ...e, diff: '', additions: added, deletions: 0 } : { ...e, diff: '', additions: added, deletions: deleted }
  })
}

interface Side { oid: string; mode: string }

async function flatten(gitdir: string, commit: string | null): Promise<Map<string, Side>> {
  const files = new Map<string, Side>()
  if (!commit) return files
  const cache = cacheFor(gitdir)
  await git.walkTree({
    fs, gitdir, cache, ref: commit,
    map: async (path, [entry]) => {
      if (!entry || path === '.') return true
      const type = await entry.type()
      if (type === 'blob' || type === 'commit') files.set(path, { oid: await entry.oid(), mode: (await entry.mode()).toString(8).padStart(6, '0') })
      return true
    },
  })
  return files
}

async function blob(gitdir: string, side: Side): Promise<Buffer> {
  const { blob } = await git.readBlob({ fs, gitdir, oid: side.oid, cache: cacheFor(gitdir) })
  return Buffer.from(blob)
}

/** Added path -> removed path, as `git diff -M` pairs them: identical content first, then regular files by similarity, best first. */
async function detectRenames(gitdir: string, before: Map<string, Side>, after: Map<string, Side>): Promise<Map<string, string>> {
  const added = [...after.keys()].filter((p) => !before.has(p))
  const removed = [...before.keys()].filter((p) => !after.has(p))
  const renames = new Map<string, string>()
  const used = new Set<string>()
  for (const to of added) {
    const from = removed.find((p) => before.get(p)!.oid === after.get(to)!.oid && !used.has(p))
    if (from) {
      renames.set(to, from)
      used.add(from)
    }
  }
  const regular = (s: Side) => s.mode.startsWith('100')
  const sources = removed.filter((p) => !used.has(p) && regular(before.get(p)!))
  const targets = added.filter((p) => !renames.has(p) && regular(after.get(p)!))
  // git's diff.renameLimit (1000): past it, only identical content counts as a rename.
  if (!sources.length || !targets.length || sources.length * targets.length > RENAME_LIMIT ** 2) return renames
  const prints = new Map<string, Fingerprint>()
  for (const p of sources) prints.set(`a/${p}`, fingerprint(await blob(gitdir, before.get(p)!)))
  for (const p of targets) prints.set(`b/${p}`, fingerprint(await blob(gitdir, after.get(p)!)))
  const scored: { to: string; from: string; score: number }[] = []
  for (const to of targets) {
    for (const from of sources) {
      const score = similarity(prints.get(`a/${from}`)!, prints.get(`b/${to}`)!)
      if (score >= 0.5) scored.push({ to, from, score })
    }
  }
  scored.sort((x, y) => y.score - x.score)
  for (const { to, from } of scored) {
    if (renames.has(to) || used.has(from)) continue
    renames.set(to, from)
    used.add(from)
  }
  return renames
}

/** Without a git command line: tree comparison, rename detection and hunks as git computes them. */
async function diffInProcess(gitdir: string, parent: string | null, oid: string): Promise<DiffFile[]> {
  const before = await flatten(gitdir, parent)
  const after = await flatten(gitdir, oid)
  const renames = await detectRenames(gitdir, before, after)
  const renamedFrom = new Set(renames.values())
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort()
  const out: DiffFile[] = []
  for (const path of paths) {
    const a = before.get(path)
    const b = after.get(path)
    if (a && b && a.oid === b.oid && a.mode === b.mode) continue
    if (!b && renamedFrom.has(path)) continue
    if (a && b && a.mode.slice(0, 2) !== b.mode.slice(0, 2)) {
      // A type change, as git shows it: the old side deleted, then the new side added.
      out.push(await fileDiff(gitdir, path, path, a, undefined), await fileDiff(gitdir, path, path, undefined, b))
      continue
    }
    const from = b && !a ? renames.get(path) : undefined
    out.push(await fileDiff(gitdir, from ?? path, path, from ? before.get(from) : a, b))
  }
  return out
}

async function fileDiff(gitdir: string, oldPath: string, newPath: string, oldSide: Side | undefined, newSide: Side | undefined): Promise<DiffFile> {
  const [oldBuf, newBuf] = await Promise.all([oldSide ? blob(gitdir, oldSide) : Buffer.alloc(0), newSide ? blob(gitdir, newSide) : Buffer.alloc(0)])
  let text = { diff: '', additions: 0, deletions: 0 }
  if (isBinary(oldBuf) || isBinary(newBuf)) {
    if (!oldBuf.equals(newBuf)) text.diff = `Binary files ${oldSide ? `a/${oldPath}` : '/dev/null'} and ${newSide ? `b/${newPath}` : '/dev/null'} differ\n`
  } else if (!oldBuf.equals(newBuf)) text = unifiedHunks(oldBuf.toString('utf8'), newBuf.toString('utf8'))
  return {
    oldPath, newPath, aMode: oldSide ? oldSide.mode : '0', bMode: newSide ? newSide.mode : '0', aBlob: oldSide?.oid ?? ZERO_OID, bBlob: newSide?.oid ?? ZERO_OID,
    newFile: !oldSide, deletedFile: !newSide, renamedFile: oldPath !== newPath, ...text,
  }
}
