// The git command line as the merge engine: `git merge-tree --write-tree` merges in the bare repository, renames included.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import * as git from '../iso.js'
import { gitChildEnv } from '../../../core/child-env.js'
import { gitOutputLimit, GitOutputTooLarge } from '../exec.js'
import type { TreeMergeResult } from './three-way.js'

const ENV = gitChildEnv({ LC_ALL: 'C' })

/** Like runGit, but exit code 1 (conflicts) is an answer, not a failure. */
function mergeTree(gitdir: string, ours: string, theirs: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = ['--git-dir', gitdir, 'merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', ours, theirs]
  const limit = gitOutputLimit()
  return new Promise((resolve, reject) => {
    execFile('git', args, { env: ENV, maxBuffer: limit, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (err as NodeJS.ErrnoException & { code?: unknown }).code : 0
      // A merge listing more paths than the cap is refused as too large (a 4xx), like any other capped git output.
      if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') reject(new GitOutputTooLarge(args, limit))
      else if (typeof code !== 'number') reject(err)
      else resolve({ code, stdout, stderr })
    })
  })
}

/** Merges two commits at their merge base(s), as `git merge` would; null when they share no history. */
export async function mergeCommitsCli(gitdir: string, ours: string, theirs: string): Promise<TreeMergeResult | null> {
  const { code, stdout, stderr } = await mergeTree(gitdir, ours, theirs)
  if (code === 0) return { tree: stdout.split('\0')[0].trim(), conflicts: [] }
  if (code === 1) {
    const paths = new Set(stdout.split('\0').slice(1).filter(Boolean))
    // A file/symlink or file/directory clash puts one side aside as `path~<commit>`: the conflict is at `path`.
    const named = [...paths].map((p) => p.replace(/~[0-9a-f]{40}$/, ''))
    return { tree: null, conflicts: [...new Set(named)].sort() }
  }
  if (/unrelated histories/.test(stderr)) return null
  throw new Error(`git merge-tree failed (${code}): ${stderr.trim()}`)
}

const NOBODY = { name: 'merge', email: 'merge@localhost', timestamp: 0, timezoneOffset: 0 }

/**
 * Git 2.39's merge-tree takes commits, not a base tree. Three throwaway commits (base, and ours and theirs on top of it)
 * make `base` the only merge base; nothing refers to them, so gc drops them.
 */
export async function mergeTreesCli(gitdir: string, base: string | null, ours: string, theirs: string): Promise<TreeMergeResult> {
  const write = (tree: string, parent: string[]) => git.writeCommit({ fs, gitdir, commit: { message: 'merge\n', tree, parent, author: NOBODY, committer: NOBODY } })
  const root = await write(base ?? (await git.writeTree({ fs, gitdir, tree: [] })), [])
  const [o, t] = await Promise.all([write(ours, [root]), write(theirs, [root])])
  return (await mergeCommitsCli(gitdir, o, t))!
}
