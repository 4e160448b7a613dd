// A repository's part of a backup: a copy made of hard links under the repository lock. git never changes a file in
// place (objects, packs and refs are written beside and renamed), so the links keep the repository as it was when the
// lock was held, while pushes go on as soon as it is released; no object is copied until the archive is written.
import { copyFile, link, mkdir, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { withRepoLock } from './lock.js'

/** What git is still writing (a push's quarantine, a repack's temporary packs, lock files) is not in the repository yet. */
const UNFINISHED = /^(incoming-|tmp_objdir|tmp_)|\.lock$/

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT'

/** A file into the copy: a hard link, or a real copy where the file system has none. */
async function linkOrCopy(from: string, to: string) {
  try {
    await link(from, to)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err
    await copyFile(from, to)
  }
}

async function linkTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true }).catch((err) => (missing(err) ? null : Promise.reject(err)))
  if (!entries) return
  await mkdir(to, { recursive: true })
  for (const e of entries) {
    if (UNFINISHED.test(e.name)) continue
    if (e.isDirectory()) await linkTree(join(from, e.name), join(to, e.name))
    else if (e.isFile()) await linkOrCopy(join(from, e.name), join(to, e.name)).catch((err) => (missing(err) ? undefined : Promise.reject(err)))
  }
}

/** The bare repository `gitdir` as it is now, linked into `to`; the caller holds the repository lock. */
export const linkRepository = (gitdir: string, to: string) => linkTree(gitdir, to)

/**
 * Runs `fn` holding the lock of every repository named, taken one after another: no push, API commit or merge moves
 * a ref of any of them until `fn` ends.
 */
export function withRepoLocks<T>(gitdirs: readonly string[], fn: () => Promise<T>): Promise<T> {
  const [first, ...rest] = gitdirs
  if (first === undefined) return fn()
  return withRepoLock(first, () => withRepoLocks(rest, fn))
}
