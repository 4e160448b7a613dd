// Blobs by id and the merge base of several commits, for the repository reads of issue 15.
import fs from 'node:fs'
import git from 'isomorphic-git'
import { runGit } from './exec.js'
import { cacheFor } from './read.js'

/** A blob by its full or abbreviated (4+ hex) id; null when no blob has it (a commit or tree id is no blob either). */
export async function readBlobById(gitdir: string, sha: string): Promise<{ oid: string; content: Buffer } | null> {
  if (!/^[0-9a-f]{4,40}$/i.test(sha)) return null
  try {
    const oid = sha.length === 40 ? sha.toLowerCase() : await git.expandOid({ fs, gitdir, oid: sha.toLowerCase(), cache: cacheFor(gitdir) })
    const { blob } = await git.readBlob({ fs, gitdir, oid, cache: cacheFor(gitdir) })
    return { oid, content: Buffer.from(blob) }
  } catch {
    return null
  }
}

/** The best common ancestor of resolved commits (`git merge-base`), or null when their histories never meet. */
export async function mergeBaseOf(gitdir: string, commits: string[]): Promise<string | null> {
  try {
    return (await runGit(gitdir, ['merge-base', ...commits])).trim() || null
  } catch {
    // git exits 1 with no output when there is no common ancestor.
    return null
  }
}
