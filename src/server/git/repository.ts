// Bare repositories on disk: create, copy (forks), remove, and the cheap facts read without walking history.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { cp, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import * as git from './iso.js'
import { withRepoLock } from './lock.js'

export const repositoryDir = (root: string, projectId: number) => join(root, `${projectId}.git`)

export async function initRepository(dir: string, defaultBranch: string) {
  await git.init({ fs, dir, gitdir: dir, bare: true, defaultBranch })
}

/**
 * Copies a repository (a fork's). The destination's lock is taken at the call, before any await, so a write that comes
 * in while the copy runs waits for it; the copy is made beside the destination and renamed into place, so a read sees
 * all of it or nothing.
 */
export function copyRepository(from: string, to: string): Promise<void> {
  return withRepoLock(to, async () => {
    const partial = `${to}.copy-${randomUUID()}`
    try {
      await cp(from, partial, { recursive: true, errorOnExist: false })
      await rm(to, { recursive: true, force: true })
      await rename(partial, to)
    } finally {
      await rm(partial, { recursive: true, force: true })
    }
  })
}

/**
 * Under the repository lock, so no API commit or push writes objects into a directory being emptied; the retries cover
 * what writes without the lock (a housekeeping repack finishing), which makes rmdir fail with ENOTEMPTY.
 */
export async function removeRepository(dir: string) {
  await withRepoLock(dir, () => rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }))
}

async function hasFiles(dir: string): Promise<boolean> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return false
  }
  for (const e of entries) {
    if (e.isFile() || (e.isDirectory() && (await hasFiles(join(dir, e.name))))) return true
  }
  return false
}

/** True while no branch exists: loose refs under refs/heads or branch lines in packed-refs. */
export async function isEmptyRepository(dir: string): Promise<boolean> {
  if (await hasFiles(join(dir, 'refs', 'heads'))) return false
  const packed = await readFile(join(dir, 'packed-refs'), 'utf8').catch(() => '')
  return !/ refs\/heads\//.test(packed)
}

export async function directorySize(dir: string): Promise<number> {
  let total = 0
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const e of entries) {
    const p = join(dir, e.name)
    if (e.isDirectory()) total += await directorySize(p)
    else if (e.isFile()) total += (await stat(p)).size
  }
  return total
}
