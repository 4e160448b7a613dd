// Diffs of a commit against its first parent: unified hunks, modes, new/renamed/deleted flags and line stats.
import fs from 'node:fs'
import git from 'isomorphic-git'
import { cachedDiff } from './diff-cache.js'
import { fingerprint, isBinary, similarity, unifiedHunks, type Fingerprint } from './diff-text.js'
import { gitAvailable, GitOutputTooLarge, runGit } from './exec.js'
import { cacheFor, readCommitInfo } from './read.js'
import type { DiffFile } from './types.js'

/** GitLab prints a missing side's mode as `0`, not git's `000000`. */
const gitlabMode = (mode: string) => (/^0+$/.test(mode) ? '0' : mode)

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
const RENAME_LIMIT = 1000

/**
 * The diff of a commit against its first parent. It depends on nothing but the commit (objects are content-addressed),
 * so it is cached by commit id and engine; `gitdir` only says where to read it the first time.
 */
export async function commitDiff(gitdir: string, oid: string): Promise<readonly DiffFile[]> {
  const withGit = await gitAvailable()
  const compute = async () => {
    const info = await readCommitInfo(gitdir, oid)
    const parent = info.parents[0] ?? null
    return withGit ? diffWithGit(gitdir, parent, oid) : diffInProcess(gitdir, parent, oid)
  }
  // Only a full object id names one commit forever; a ref or a short id is read afresh.
  return FULL_OID.test(oid) ? cachedDiff(`${withGit ? 'git' : 'in-process'}:${oid}`, compute) : compute()
}

const FULL_OID = /^[0-9a-f]{40}$/

/** The diff between two commits (a merge request's `base..head`), cached by both ids and engine like commitDiff. */
export async function diffBetween(gitdir: string, from: string, to: string): Promise<readonly DiffFile[]> {
  const withGit = await gitAvailable()
  const compute = () => (withGit ? diffWithGit(gitdir, from, to) : diffInProcess(gitdir, from, to))
  return FULL_OID.test(from) && FULL_OID.test(to) ? cachedDiff(`${withGit ? 'git' : 'in-process'}:${from}..${to}`, compute) : compute()
}

export async function diffStats(files: readonly DiffFile[]) {
  const additions = files.reduce((n, f) => n + f.additions, 0)
  const deletions = files.reduce((n, f) => n + f.deletions, 0)
  return { additions, deletions, total: additions + deletions }
}

type DiffEntryHead = Omit<DiffFile, 'diff' | 'additions' | 'deletions'>

const DIFF_OPTIONS = ['-M', '--no-color', '--no-ext-diff', '--full-index', '--no-abbrev']

/** The most patch text one diff may bring into memory; past it the diff is shown without hunks, as GitLab does for huge diffs. */
const PATCH_LIMIT = 16 * 1024 * 1024

/** Raw (-z, exact paths) and patch output in one run; entries and patches come in the same order. */
async function diffWithGit(gitdir: string, parent: string | null, oid: string): Promise<DiffFile[]> {
  const range = [parent ?? EMPTY_TREE, oid]
  let out: string
  try {
    out = await runGit(gitdir, ['diff', ...DIFF_OPTIONS, '--raw', '-p', '-z', ...range], { maxBytes: PATCH_LIMIT })
  } catch (err) {
    if (err instanceof GitOutputTooLarge) return diffWithoutPatches(gitdir, range)
    throw err
  }
  const split = out.indexOf('\0\0diff --git ')
  const entries = parseRaw(split >= 0 ? out.slice(0, split) : out.replace(/\0+$/, ''))
  return withPatches(entries, split >= 0 ? out.slice(split + 2) : '')
}

/**
 * Each entry with its patch's hunks and line counts, in one pass over the patch text. Only `\n` ends a line here:
 * a multiline regular expression's `^` also matches after a lone CR or U+2028 inside a line, which split one file's
 * patch in two and gave every later file its neighbour's. (The pass is also cheaper: ~0.4 ms for 400 files, cold.)
 */
function withPatches(entries: DiffEntryHead[], patchText: string): DiffFile[] {
  let next = patchText ? 0 : -1
  return entries.map((e) => {
    if (next < 0) return { ...e, diff: '', additions: 0, deletions: 0 }
    const start = next
    // A patch ends where a line starts the next one; content lines start with ' ', '+', '-' or '\\', never with this.
    const boundary = patchText.indexOf('\ndiff --git ', start)
    next = boundary < 0 ? -1 : boundary + 1
    return { ...e, ...hunksOf(patchText, start, boundary < 0 ? patchText.length : boundary + 1) }
  })
}

/** The hunks of the patch at text[start, end): from its first line starting `@@` or `Binary files `, and their +/- lines. */
function hunksOf(text: string, start: number, end: number) {
  let from = -1
  for (let line = start; line < end; line = text.indexOf('\n', line) + 1 || end) {
    if (text.startsWith('@@', line) || text.startsWith('Binary files ', line)) {
      from = line
      break
    }
  }
  if (from < 0) return { diff: '', additions: 0, deletions: 0 }
  let additions = 0
  let deletions = 0
  for (let line = from; line < end; line = text.indexOf('\n', line) + 1 || end) {
    const c = text.charCodeAt(line)
    if (c === 43) additions++
    else if (c === 45) deletions++
  }
  return { diff: text.slice(from, end), additions, deletions }
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

/** `--numstat -z` records: `added\tdeleted\tpath\0`, or for a rename `added\tdeleted\t\0old\0new\0`; binaries count `-`. */
function parseNumstat(out: string): [number, number][] {
  const fields = out.split('\0')
  const counts: [number, number][] = []
  for (let i = 0; i < fields.length; i++) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(fields[i])
    if (!m) continue
    counts.push([m[1] === '-' ? 0 : Number(m[1]), m[2] === '-' ? 0 : Number(m[2])])
    if (m[3] === '') i += 2
  }
  return counts
}

/** `--raw -z` records to entries, in git's order. */
function parseRaw(rawPart: string): DiffEntryHead[] {
  const fields = rawPart.split('\0')
  const entries: DiffEntryHead[] = []
  for (let i = 0; i < fields.length; ) {
    const head = fields[i++]
    if (!head.startsWith(':')) continue
    const [aMode, bMode, , , status] = head.slice(1).split(' ')
    const renamed = status.startsWith('R') || status.startsWith('C')
    const oldPath = fields[i++]
    const newPath = renamed ? fields[i++] : oldPath
    // A type change (file <-> symlink) gets two patches from git, a deletion and an addition: two entries keep them in step.
    if (status === 'T') {
      const side = { oldPath, newPath, renamedFile: false }
      entries.push({ ...side, aMode: gitlabMode(aMode), bMode: '0', newFile: false, deletedFile: true })
      entries.push({ ...side, aMode: '0', bMode: gitlabMode(bMode), newFile: true, deletedFile: false })
      continue
    }
    entries.push({
      oldPath, newPath, aMode: gitlabMode(aMode), bMode: gitlabMode(bMode), newFile: status === 'A', deletedFile: status === 'D', renamedFile: status.startsWith('R'),
    })
  }
  return entries
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
    oldPath, newPath, aMode: oldSide ? oldSide.mode : '0', bMode: newSide ? newSide.mode : '0',
    newFile: !oldSide, deletedFile: !newSide, renamedFile: oldPath !== newPath, ...text,
  }
}
