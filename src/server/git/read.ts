// Reading refs, commits, trees and blobs of a bare repository in-process with isomorphic-git.
import fs from 'node:fs'
import git from 'isomorphic-git'
import { formatGitDate } from './dates.js'
import { GitError, type CommitInfo, type RefInfo, type TagInfo, type TreeItem } from './types.js'

const caches = new Map<string, object>()

/** isomorphic-git is ~10x faster with a cache shared across calls; one per repository. */
export function cacheFor(gitdir: string): object {
  let c = caches.get(gitdir)
  if (!c) caches.set(gitdir, (c = {}))
  return c
}

/** Packs may be replaced by a push; drop parsed pack indexes so the next read sees the new ones. */
export const forgetCache = (gitdir: string) => caches.delete(gitdir)

const opts = (gitdir: string) => ({ fs, gitdir, cache: cacheFor(gitdir) })

const HEX40 = /^[0-9a-f]{40}$/
const SHORT = /^[0-9a-f]{4,39}$/

export function isValidRefName(name: string): boolean {
  if (!name || name.length > 1024 || name === '@' || name.startsWith('-') || name.startsWith('/') || name.endsWith('/')) return false
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name) || name.includes('..') || name.includes('@{') || name.includes('//')) return false
  // A part is a file name under refs/ (with `.lock` added while git updates it), so it must fit in 255 bytes.
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock') && Buffer.byteLength(part) <= 250) && !name.endsWith('.')
}

/** A name for a new branch or tag, as GitLab's GitRefValidator allows: not `HEAD`, not spelled as a full ref. */
export const isValidNewRefName = (name: string) => isValidRefName(name) && name !== 'HEAD' && !/^refs\/(heads|tags|remotes)\//.test(name)

export async function readRef(gitdir: string, ref: string): Promise<string | null> {
  try {
    return await git.resolveRef({ fs, gitdir, ref })
  } catch {
    return null
  }
}

async function objectType(gitdir: string, oid: string) {
  try {
    const { type } = await git.readObject({ ...opts(gitdir), oid, format: 'content' })
    return type
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
    const { tag } = await git.readTag({ ...opts(gitdir), oid })
    oid = tag.object
  }
  return null
}

/**
 * Full ids found to name a commit, per repository cache: an id's object never changes, so once read it need not be
 * read again (each read from a large pack costs ~0.3 ms, most of a diff page). Forgotten with the cache (after a
 * push or housekeeping), when objects may have gone.
 */
const commitIds = new WeakMap<object, Set<string>>()
const COMMIT_IDS_LIMIT = 10_000

async function knownCommit(gitdir: string, oid: string): Promise<string | null> {
  const cache = cacheFor(gitdir)
  let known = commitIds.get(cache)
  if (known?.has(oid)) return oid
  const commit = await peelToCommit(gitdir, oid)
  if (commit === oid) {
    if (!known || known.size >= COMMIT_IDS_LIMIT) commitIds.set(cache, (known = new Set()))
    known.add(oid)
  }
  return commit
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
    try {
      return peelToCommit(gitdir, await git.expandOid({ ...opts(gitdir), oid: rev }))
    } catch {
      return null
    }
  }
  return null
}

/** The message as stored: isomorphic-git's readCommit strips carriage returns and leading newlines and ends it with one newline. */
export async function readRawMessage(gitdir: string, oid: string): Promise<string> {
  const { object } = await git.readObject({ ...opts(gitdir), oid, format: 'content' })
  const text = Buffer.from(object as Uint8Array).toString('utf8')
  const end = text.indexOf('\n\n')
  return end < 0 ? '' : text.slice(end + 2)
}

export async function readCommitInfo(gitdir: string, oid: string): Promise<CommitInfo> {
  let result
  let message
  try {
    result = await git.readCommit({ ...opts(gitdir), oid })
    message = await readRawMessage(gitdir, result.oid)
  } catch {
    throw new GitError('not_found', `commit ${oid} not found`)
  }
  const c = result.commit
  return {
    id: result.oid,
    parents: c.parent,
    message,
    authorName: c.author.name,
    authorEmail: c.author.email,
    authoredDate: formatGitDate(c.author.timestamp, -c.author.timezoneOffset),
    committerName: c.committer.name,
    committerEmail: c.committer.email,
    committedDate: formatGitDate(c.committer.timestamp, -c.committer.timezoneOffset),
    trailers: parseTrailers(message),
  }
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
  const { tag } = await git.readTag({ ...opts(gitdir), oid: target })
  return { name, target, commit, message: tag.message.replace(/\n$/, ''), taggerDate: formatGitDate(tag.tagger.timestamp, -tag.tagger.timezoneOffset) }
}

export async function readBranch(gitdir: string, name: string): Promise<RefInfo | null> {
  if (!isValidRefName(name)) return null
  const oid = await readRef(gitdir, `refs/heads/${name}`)
  return oid ? { name, oid } : null
}

/** Is `ancestor` reachable from `descendant` (or equal)? */
export async function isAncestor(gitdir: string, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true
  try {
    return await git.isDescendent({ ...opts(gitdir), oid: descendant, ancestor, depth: -1 })
  } catch {
    return false
  }
}

/** The entry at `path` in a commit's tree, or null. An empty path is the root tree. */
export async function entryAt(gitdir: string, commit: string, path: string): Promise<{ oid: string; type: 'blob' | 'tree' | 'commit'; mode: string } | null> {
  const { commit: c } = await git.readCommit({ ...opts(gitdir), oid: commit })
  let current = { oid: c.tree, type: 'tree' as 'blob' | 'tree' | 'commit', mode: '040000' }
  for (const part of path.split('/').filter(Boolean)) {
    if (current.type !== 'tree') return null
    const { tree } = await git.readTree({ ...opts(gitdir), oid: current.oid })
    const e = tree.find((t) => t.path === part)
    if (!e) return null
    current = { oid: e.oid, type: e.type, mode: e.mode }
  }
  return current
}

/** git's tree order: bytes, with a tree's name compared as `name/`; isomorphic-git reads entries back in plain name order. */
const gitOrder = (e: { path: string; type: string }) => Buffer.from(e.type === 'tree' ? `${e.path}/` : e.path)

export async function readTreeItems(gitdir: string, treeOid: string, base: string, recursive: boolean): Promise<TreeItem[]> {
  const { tree } = await git.readTree({ ...opts(gitdir), oid: treeOid })
  const out: TreeItem[] = []
  for (const e of [...tree].sort((a, b) => Buffer.compare(gitOrder(a), gitOrder(b)))) {
    const path = base ? `${base}/${e.path}` : e.path
    out.push({ oid: e.oid, name: e.path, path, type: e.type, mode: e.mode })
    if (recursive && e.type === 'tree') out.push(...(await readTreeItems(gitdir, e.oid, path, true)))
  }
  return out
}

export async function readBlob(gitdir: string, oid: string): Promise<Buffer> {
  const { blob } = await git.readBlob({ ...opts(gitdir), oid })
  return Buffer.from(blob)
}
