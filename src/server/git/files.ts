// Lists the blobs of a tree with their sizes: the git command line when present (one process), else isomorphic-git.
import fs from 'node:fs'
import * as git from './iso.js'
import { GitCommandError, runGit } from './exec.js'

export interface FileEntry { path: string; size: number }

export async function listBlobSizes(dir: string, ref: string): Promise<FileEntry[]> {
  try {
    // Capped like every git output: a tree too large to list has no language breakdown rather than unbounded memory.
    const stdout = await runGit(dir, ['ls-tree', '-r', '-l', '-z', '--', ref])
    return stdout.split('\0').filter(Boolean).flatMap((line) => {
      const m = line.match(/^\d+ blob [0-9a-f]+\s+(\d+)\t(.*)$/s)
      return m ? [{ path: m[2], size: Number(m[1]) }] : []
    })
  } catch (err) {
    if (!(err instanceof GitCommandError && err.code === 'ENOENT')) return []
  }
  const out: FileEntry[] = []
  const cache = {}
  try {
    await git.walkTree({
      fs, gitdir: dir, cache, ref,
      map: async (path, [entry]) => {
        if (!entry || path === '.') return true
        if ((await entry.type()) === 'blob') out.push({ path, size: (await entry.content())?.length ?? 0 })
        return true
      },
    })
  } catch {
    return []
  }
  return out
}
