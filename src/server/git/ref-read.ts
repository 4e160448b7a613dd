// Refs of a bare repository: names checked as git checks them, read from their files (or packed-refs) as git stores them,
// branches and tags listed.
import fs from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as git from './iso.js'
import { gitAvailable } from './exec.js'
import { HEX40, peelToCommit, readObjectOf } from './object-read.js'
import { date, parseTag } from './object-parse.js'
import type { RefInfo, TagInfo } from './types.js'

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
