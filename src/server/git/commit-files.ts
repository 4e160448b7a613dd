// Writes a commit of whole files onto a branch of a bare repository (used for `initialize_with_readme`).
import fs from 'node:fs'
import git from 'isomorphic-git'

export interface Signature { name: string; email: string; timestamp: number; timezoneOffset?: number }

export async function commitFiles(dir: string, opts: { branch: string; message: string; author: Signature; files: { path: string; content: string }[] }) {
  const entries = []
  for (const f of opts.files) {
    if (f.path.includes('/')) throw new Error('commitFiles writes top-level files only')
    const oid = await git.writeBlob({ fs, gitdir: dir, blob: Buffer.from(f.content) })
    entries.push({ mode: '100644', path: f.path, oid, type: 'blob' as const })
  }
  const tree = await git.writeTree({ fs, gitdir: dir, tree: entries })
  const author = { ...opts.author, timezoneOffset: opts.author.timezoneOffset ?? 0 }
  const oid = await git.writeCommit({ fs, gitdir: dir, commit: { message: opts.message.endsWith('\n') ? opts.message : opts.message + '\n', tree, parent: [], author, committer: author } })
  await git.writeRef({ fs, gitdir: dir, ref: `refs/heads/${opts.branch}`, value: oid, force: true })
  return oid
}

