// Reading refs, commits, trees and blobs of a bare repository. Objects come from git itself (a pool of
// `git cat-file --batch-command` processes, cat-file.ts), so memory never grows with a repository's packs; isomorphic-git
// answers only where no git command line is installed. Refs are read from their files.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import * as git from './iso.js'
import { blobStream, catFile, forgetObjects, type GitObject, type ObjectType } from './cat-file.js'
import { gitAvailable, runGit } from './exec.js'
import { commitInfo, date, parseCommit, parseTag, parseTree } from './object-parse.js'
import { GitError, type CommitInfo, type RefInfo, type TagInfo, type TreeItem } from './types.js'

/**
 * isomorphic-git's cache of a repository (parsed pack indexes and the packs it has read whole): ~10x faster with one
 * shared across calls. Only the writes and in-process engines use it; it is kept for the few repositories used last and
 * dropped once a repository goes unused for a sweep period, so no pack stays in memory for long.
 */
const caches = new Map<string, { cache: object; used: boolean }>()
const MAX_CACHES = 4
const CACHE_SWEEP_MS = 30_000
let cacheSweeper: NodeJS.Timeout | null = null

export function cacheFor(gitdir: string): object {
  let c = caches.get(gitdir)
  if (c) caches.delete(gitdir)
  else c = { cache: {}, used: true }
  c.used = true
  caches.set(gitdir, c)
  if (caches.size > MAX_CACHES) caches.delete(caches.keys().next().value as string)
  cacheSweeper ??= setInterval(sweepCaches, CACHE_SWEEP_MS).unref()
  return c.cache
}

function sweepCaches() {
  for (const [gitdir, c] of caches) {
    if (!c.used) caches.delete(gitdir)
    c.used = false
  }
  if (!caches.size && cacheSweeper) {
    clearInterval(cacheSweeper)
    cacheSweeper = null
  }
}

/** Packs may be replaced by a push, objects removed by housekeeping, the directory deleted: read everything afresh. */
export function forgetCache(gitdir: string) {
  caches.delete(gitdir)
  commitIds.delete(gitdir)
  for (const key of ancestry.keys()) if (key.startsWith(`${gitdir}\0`)) ancestry.delete(key)
  forgetObjects(gitdir)
}

const opts = (gitdir: string) => ({ fs, gitdir, cache: cacheFor(gitdir) })

const HEX40 = /^[0-9a-f]{40}$/
const SHORT = /^[0-9a-f]{4,39}$/

/** A whole object by full id, null when missing; from git when installed, else isomorphic-git. */
async function readObject(gitdir: string, oid: string): Promise<GitObject | null> {
  if (await gitAvailable()) return catFile(gitdir).read(oid)
  if (!HEX40.test(oid)) return null
  try {
    const { type, object } = await git.readObject({ ...opts(gitdir), oid, format: 'content' })
    const content = Buffer.from(object as Uint8Array)
    return { oid, type: type as ObjectType, size: content.length, content }
  } catch {
    return null
  }
}

async function readObjectOf(gitdir: string, oid: string, type: ObjectType): Promise<GitObject> {
  const obj = await readObject(gitdir, oid)
  if (obj?.type !== type) throw new GitError('not_found', `${type} ${oid} not found`)
  return obj
}

async function objectType(gitdir: string, oid: string): Promise<ObjectType | null> {
  if (await gitAvailable()) return (await catFile(gitdir).info(oid))?.type ?? null
  return (await readObject(gitdir, oid))?.type ?? null
}

export function isValidRefName(name: string): boolean {
  if (!name || name.length > 1024 || name === '@' || name.startsWith('-') || name.startsWith('/') || name.endsWith('/')) return false
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name) || name.includes('..') || name.includes('@{') || name.includes('//')) return false
  // A part is a file name under refs/ (with `.lock` added while git updates it), so it must fit in 255 bytes.
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock') && Buffer.byteLength(part) <= 250) && !name.endsWith('.')
}

/** A name for a new branch or tag, as GitLab's GitRefValidator allows: not `HEAD`, not spelled as a full ref. */
export const isValidNewRefName = (name: string) => isValidRefName(name) && name !== 'HEAD' && !/^refs\/(heads|tags|remotes)\//.test(name)

export async function readRef(gitdir: string, ref: string): Promise<string | null> {
  // A full name is read from its file or packed-refs line, as unpeeledTarget does; isomorphic-git only expands short names.
  if (ref === 'HEAD' || ref.startsWith('refs/')) return readRefFile(gitdir, ref)
  try {
    return await git.resolveRef({ fs, gitdir, ref })
  } catch {
    return null
  }
}

/** Peels tags until a commit is reached. */
async function peelToCommit(gitdir: string, oid: string): Promise<string | null> {
  for (let i = 0; i < 10; i++) {
    const type = await objectType(gitdir, oid)
    if (type === 'commit') return oid
    if (type !== 'tag') return null
    oid = parseTag((await readObjectOf(gitdir, oid, 'tag')).content).object
  }
  return null
}

/**
 * Full ids found to name a commit, per repository: an id's object never changes, so once read it need not be read
 * again. Forgotten with the cache (after a push or housekeeping), when objects may have gone.
 */
const commitIds = new Map<string, Set<string>>()
const COMMIT_IDS_LIMIT = 10_000

async function knownCommit(gitdir: string, oid: string): Promise<string | null> {
  let known = commitIds.get(gitdir)
  if (known?.has(oid)) return oid
  const commit = await peelToCommit(gitdir, oid)
  if (commit === oid) {
    if (!known || known.size >= COMMIT_IDS_LIMIT) commitIds.set(gitdir, (known = new Set()))
    known.add(oid)
  }
  return commit
}

/** A short id's full id, when it names one object. */
async function expandShortId(gitdir: string, short: string): Promise<string | null> {
  if (await gitAvailable()) return (await catFile(gitdir).info(short))?.oid ?? null
  try {
    return await git.expandOid({ ...opts(gitdir), oid: short })
  } catch {
    return null
  }
}

/** A branch, tag, full or abbreviated hash, or HEAD, to a commit id; null when it names nothing. */
export async function resolveCommit(gitdir: string, rev: string): Promise<string | null> {
  if (!rev || rev.length > 1024 || rev.includes('\0')) return null
  if (HEX40.test(rev)) return knownCommit(gitdir, rev)
  for (const ref of rev === 'HEAD' ? ['HEAD'] : [`refs/heads/${rev}`, `refs/tags/${rev}`]) {
    if (ref !== 'HEAD' && !isValidRefName(rev)) break
    const oid = await readRef(gitdir, ref)
    if (oid) return peelToCommit(gitdir, oid)
  }
  if (SHORT.test(rev)) {
    const oid = await expandShortId(gitdir, rev)
    return oid ? peelToCommit(gitdir, oid) : null
  }
  return null
}

/**
 * What a branch, tag, HEAD or full id names, read from ref files alone (no object is read, no process started): an id
 * that may be a tag to peel, or not name a commit at all, for git commands that peel and check it themselves. Null when
 * the name needs objects to settle (a short id), names nothing, or no git command line will read it.
 */
export async function unpeeledTarget(gitdir: string, rev: string): Promise<string | null> {
  if (!(await gitAvailable()) || !rev || rev.length > 1024 || rev.includes('\0')) return null
  if (HEX40.test(rev)) return rev
  if (rev === 'HEAD') return readRefFile(gitdir, 'HEAD')
  if (!isValidRefName(rev)) return null
  const packed = { text: null as string | null }
  return (await readRefFile(gitdir, `refs/heads/${rev}`, packed)) ?? (await readRefFile(gitdir, `refs/tags/${rev}`, packed))
}

/**
 * A full ref's id as git stores it: its loose file (a symbolic one followed), else its line in packed-refs; null when
 * absent. A few file reads, where isomorphic-git's resolveRef took 0.6 ms of CPU (2-3 ms the first time in a process).
 */
async function readRefFile(gitdir: string, ref: string, packed: { text: string | null } = { text: null }, depth = 0): Promise<string | null> {
  // git replaces ref files by rename, so a read sees a whole old or new one; a directory (refs/heads/a of a/b) is none.
  const loose = await readFile(join(gitdir, ref), 'utf8').catch(() => null)
  if (loose !== null) {
    const value = loose.trim()
    if (value.startsWith('ref: ')) return depth < 5 ? readRefFile(gitdir, value.slice(5), packed, depth + 1) : null
    return HEX40.test(value) ? value : null
  }
  packed.text ??= `${await readFile(join(gitdir, 'packed-refs'), 'utf8').catch(() => '')}\n`
  const at = packed.text.indexOf(` ${ref}\n`)
  const start = at - 40
  return at >= 40 && (start === 0 || packed.text[start - 1] === '\n') && HEX40.test(packed.text.slice(start, at)) ? packed.text.slice(start, at) : null
}

/** A commit object, tags peeled; not_found when the id names no commit. */
async function readCommitObject(gitdir: string, oid: string): Promise<GitObject> {
  const commit = HEX40.test(oid) ? await peelToCommit(gitdir, oid) : null
  if (!commit) throw new GitError('not_found', `commit ${oid} not found`)
  return readObjectOf(gitdir, commit, 'commit')
}

/** The message as stored (isomorphic-git's readCommit would strip carriage returns and leading newlines). */
export async function readRawMessage(gitdir: string, oid: string): Promise<string> {
  return parseCommit((await readCommitObject(gitdir, oid)).content).message
}

/** A commit's `gpgsig` header (continuation lines joined), or null when it is unsigned. */
export async function readCommitGpgsig(gitdir: string, oid: string): Promise<string | null> {
  return parseCommit((await readCommitObject(gitdir, oid)).content).gpgsig ?? null
}

export async function readCommitInfo(gitdir: string, oid: string): Promise<CommitInfo> {
  const obj = await readCommitObject(gitdir, oid)
  return commitInfo(obj.oid, obj.content, parseTrailers)
}

/** `Key: value` lines of the message's last paragraph, as git interpret-trailers reads them. */
export function parseTrailers(message: string): [string, string][] {
  const paragraphs = message.trimEnd().split(/\n\s*\n/)
  if (paragraphs.length < 2) return []
  const lines = paragraphs[paragraphs.length - 1].split('\n')
  const out: [string, string][] = []
  for (const line of lines) {
    const m = line.match(/^([A-Za-z0-9][A-Za-z0-9-]*):\s+(.*)$/)
    if (!m) return []
    out.push([m[1], m[2]])
  }
  return out
}

export async function listBranches(gitdir: string): Promise<RefInfo[]> {
  const names = await git.listBranches({ fs, gitdir })
  const out: RefInfo[] = []
  for (const name of names.sort()) {
    const oid = await readRef(gitdir, `refs/heads/${name}`)
    if (oid) out.push({ name, oid })
  }
  return out
}

export async function listTags(gitdir: string): Promise<TagInfo[]> {
  const names = await git.listTags({ fs, gitdir })
  const out: TagInfo[] = []
  for (const name of names.sort()) {
    const tag = await readTagInfo(gitdir, name)
    if (tag) out.push(tag)
  }
  return out
}

export async function readTagInfo(gitdir: string, name: string): Promise<TagInfo | null> {
  if (!isValidRefName(name)) return null
  const target = await readRef(gitdir, `refs/tags/${name}`)
  if (!target) return null
  const commit = await peelToCommit(gitdir, target)
  if (!commit) return null
  if (target === commit) return { name, target, commit, message: null, taggerDate: null }
  const tag = parseTag((await readObjectOf(gitdir, target, 'tag')).content)
  return { name, target, commit, message: tag.message.replace(/\n$/, ''), taggerDate: tag.tagger && date(tag.tagger) }
}

export async function readBranch(gitdir: string, name: string): Promise<RefInfo | null> {
  if (!isValidRefName(name)) return null
  const oid = await readRef(gitdir, `refs/heads/${name}`)
  return oid ? { name, oid } : null
}

/**
 * Answers of isAncestor by repository and both full ids: which commits a commit reaches never changes. Bounded by
 * count; forgotten with the repository's cache.
 */
const ancestry = new Map<string, boolean>()
const ANCESTRY_LIMIT = 10_000
/** Commits a walk through cat-file reads before asking `git merge-base`, whose process costs more than a short walk. */
const WALK_LIMIT = 100

/** Is `ancestor` reachable from `descendant` (or equal)? */
export async function isAncestor(gitdir: string, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true
  if (!(await gitAvailable())) {
    try {
      return await git.isDescendent({ ...opts(gitdir), oid: descendant, ancestor, depth: -1 })
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

/** A blob whole (GitOutputTooLarge past the git output limit: use openBlob for large ones). */
export async function readBlob(gitdir: string, oid: string): Promise<Buffer> {
  return (await readObjectOf(gitdir, oid, 'blob')).content
}

/** A blob's full id and size by its full or abbreviated (4+ hex) id; null when no blob has it. */
export async function blobInfo(gitdir: string, name: string): Promise<{ oid: string; size: number } | null> {
  if (!/^[0-9a-f]{4,40}$/.test(name)) return null
  if (await gitAvailable()) {
    const info = await catFile(gitdir).info(name)
    return info?.type === 'blob' ? { oid: info.oid, size: info.size } : null
  }
  const oid = HEX40.test(name) ? name : await expandShortId(gitdir, name)
  const obj = oid ? await readObject(gitdir, oid) : null
  return obj?.type === 'blob' ? { oid: obj.oid, size: obj.size } : null
}

/** How many leading bytes `openBlob` hands over before the stream: enough for git's binary check (a NUL in 8000 bytes). */
const HEAD_BYTES = 8000

/**
 * A blob's bytes as a stream (never whole in memory when git is installed) and its first bytes read ahead; the stream
 * still carries every byte. The id must be a full blob id (see blobInfo).
 */
export async function openBlob(gitdir: string, oid: string): Promise<{ head: Buffer; stream: Readable }> {
  const source = (await gitAvailable()) ? blobStream(gitdir, oid) : Readable.from([await readBlob(gitdir, oid)])
  return readAhead(source, HEAD_BYTES)
}

/** Blobs up to this size are read whole to be sent; larger ones are streamed from git as they are sent. */
export const WHOLE_BLOB_BYTES = 1024 * 1024

/** A blob to send: whole when small, else a stream (with its first bytes read ahead), never whole in memory. */
export async function blobToSend(gitdir: string, oid: string, size: number): Promise<{ head: Buffer; body: Buffer | Readable }> {
  if (size > WHOLE_BLOB_BYTES) {
    const { head, stream } = await openBlob(gitdir, oid)
    return { head, body: stream }
  }
  const content = await readBlob(gitdir, oid)
  return { head: content.subarray(0, HEAD_BYTES), body: content }
}

// SHA-256 digests of blobs by repository and id (a blob never changes): a large one is read once for its digest.
const digests = new Map<string, string>()

/** A blob's SHA-256 (hex), read as a stream: never whole in memory. */
export async function blobSha256(gitdir: string, oid: string): Promise<string> {
  const key = `${gitdir}\0${oid}`
  const known = digests.get(key)
  if (known) return known
  const hash = createHash('sha256')
  const { stream } = await openBlob(gitdir, oid)
  for await (const chunk of stream) hash.update(chunk as Buffer)
  const digest = hash.digest('hex')
  if (digests.size >= 1000) digests.delete(digests.keys().next().value as string)
  digests.set(key, digest)
  return digest
}

function readAhead(source: Readable, n: number): Promise<{ head: Buffer; stream: Readable }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let length = 0
    let ended = false
    const finish = () => {
      source.off('readable', onReadable)
      source.off('end', onEnd)
      source.off('error', reject)
      const first = Buffer.concat(chunks)
      const out = new PassThrough({ highWaterMark: 256 * 1024 })
      if (ended) out.end(first)
      else {
        out.write(first)
        source.once('error', (err) => out.destroy(err))
        out.once('close', () => source.destroy())
        source.pipe(out)
      }
      resolve({ head: first.subarray(0, n), stream: out })
    }
    const onReadable = () => {
      for (let c: Buffer | null; length < n && (c = source.read() as Buffer | null) !== null;) {
        chunks.push(c)
        length += c.length
      }
      if (length >= n) finish()
    }
    const onEnd = () => {
      ended = true
      finish()
    }
    source.on('readable', onReadable)
    source.once('end', onEnd)
    source.once('error', reject)
  })
}
