// A repository's part of a backup: a copy made of hard links under the repository lock. git never changes a file in
// place (objects, packs and refs are written beside and renamed), so the links keep the repository as it was when the
// lock was held, while pushes go on as soon as it is released; no object is copied until the archive is written.
import { linkSync, mkdirSync, readdirSync, type Dirent } from 'node:fs'
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { withRepoLock } from './lock.js'

/** What git is still writing (a push's quarantine, a repack's temporary packs, lock files) is not in the repository yet. */
const UNFINISHED = /^(incoming-|tmp_objdir|tmp_)|\.lock$/

/** Whether an entry of a repository, by its name, is one git is still writing (and a backup leaves out). */
export const unfinishedGitEntry = (name: string) => UNFINISHED.test(name)

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT'

/** Links made between two turns of the event loop: the calls are synchronous (see linkOrCopy), so requests get turns. */
const LINKS_A_TURN = 256

/**
 * A file into the copy: a hard link, or a real copy where the file system has none. The link is made with a
 * synchronous call: one round trip through libuv's threads per file (thousands of loose objects) made staging take
 * seconds on a loaded machine, and the repository's lock is held meanwhile.
 */
async function linkOrCopy(from: string, to: string) {
  try {
    linkSync(from, to)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err
    await copyFile(from, to)
  }
}

async function linkTree(from: string, to: string, made = { links: 0 }): Promise<void> {
  let entries: Dirent[]
  try {
    entries = readdirSync(from, { withFileTypes: true })
  } catch (err) {
    if (missing(err)) return
    throw err
  }
  mkdirSync(to, { recursive: true })
  for (const e of entries) {
    if (unfinishedGitEntry(e.name)) continue
    if (e.isDirectory()) await linkTree(join(from, e.name), join(to, e.name), made)
    else if (e.isFile()) {
      await linkOrCopy(join(from, e.name), join(to, e.name)).catch((err) => (missing(err) ? undefined : Promise.reject(err)))
      if (++made.links % LINKS_A_TURN === 0) await new Promise((resolve) => setImmediate(resolve))
    }
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
