// Lists the blobs of a tree with their sizes: the git command line when present (one process), else isomorphic-git.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import { promisify } from 'node:util'
import git from 'isomorphic-git'

const run = promisify(execFile)

export interface FileEntry { path: string; size: number }

export async function listBlobSizes(dir: string, ref: string): Promise<FileEntry[]> {
  try {
    const { stdout } = await run('git', ['--git-dir', dir, 'ls-tree', '-r', '-l', '-z', '--', ref], { maxBuffer: 256 * 1024 * 1024 })
    return stdout.split('\0').filter(Boolean).flatMap((line) => {
      const m = line.match(/^\d+ blob [0-9a-f]+\s+(\d+)\t(.*)$/s)
      return m ? [{ path: m[2], size: Number(m[1]) }] : []
    })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return []
  }
  const out: FileEntry[] = []
  const cache = {}
  try {
    await git.walk({
      fs, gitdir: dir, cache, trees: [git.TREE({ ref })],
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
