// Revisions resolved to commits, and commits read: their message, signature and the facts GitLab shows.
import * as git from './iso.js'
import { gitAvailable } from './exec.js'
import { isoOptions } from './iso-cache.js'
import { HEX40, expandShortId, peelToCommit, readObjectOf } from './object-read.js'
import { commitInfo, parseCommit } from './object-parse.js'
import { isValidRefName, readRef } from './ref-read.js'
import { GitError, type CommitInfo } from './types.js'
import type { GitObject } from './cat-file.js'
import type { Signature } from './write.js'

const SHORT = /^[0-9a-f]{4,39}$/

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

export function forgetCommitIds(gitdir: string) {
  commitIds.delete(gitdir)
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

/** A commit object, tags peeled; not_found when the id names no commit. */
export async function readCommitObject(gitdir: string, oid: string): Promise<GitObject> {
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

export interface CommitParts { tree: string; parents: string[]; author: Signature; message: string }

/**
 * A commit's tree, parents, author and message as stored, by its full id (no tag peeled): through the repository's git
 * cat-file processes where git is installed (isomorphic-git would read and keep the pack whole), else in-process.
 */
export async function readCommitParts(gitdir: string, oid: string): Promise<CommitParts> {
  if (await gitAvailable()) {
    const c = parseCommit((await readObjectOf(gitdir, oid, 'commit')).content)
    const a = c.author
    // isomorphic-git's offset counts minutes west, and its zero keeps its sign: "+0000" is 0 and "-0000" is -0 on both sides.
    const timezoneOffset = a.offsetMinutesEast === 0 ? a.offsetMinutesEast : -a.offsetMinutesEast
    return { tree: c.tree, parents: c.parents, message: c.message, author: { name: a.name, email: a.email, timestamp: a.timestamp, timezoneOffset } }
  }
  const { commit } = await git.readCommit({ ...isoOptions(gitdir), oid })
  return { tree: commit.tree, parents: commit.parent, author: commit.author, message: commit.message }
}

export const treeOf = async (gitdir: string, commit: string) => (await readCommitParts(gitdir, commit)).tree

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
