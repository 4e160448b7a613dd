// Revert as a three-way apply of a commit's inverse: its first parent's tree merged onto the branch against its own.
import fs from 'node:fs'
import git from 'isomorphic-git'
import { withRepoLock } from './lock.js'
import { mergeTrees } from './merge/engine.js'
import { cacheFor, readRef } from './read.js'
import { GitError } from './types.js'
import { moveRef, type Signature } from './write.js'

// Commits::RevertService's words (GitLab's ChangeService#error_message with the action `revert`).
const CONFLICT = 'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.'

/** Commit#revert_message: `Revert "<title>"` and the reverted commit's id. */
const revertMessage = (message: string, oid: string) => `Revert "${message.split('\n')[0].trim()}"\n\nThis reverts commit ${oid}`

/** Reverts `oid` (a resolved commit) on `branch`; a dry run computes the commit without moving the branch. */
export async function revert(gitdir: string, opts: { oid: string; branch: string; committer: Signature; dryRun?: boolean }) {
  return withRepoLock(gitdir, async () => {
    const ref = `refs/heads/${opts.branch}`
    const head = await readRef(gitdir, ref)
    if (!head) throw new GitError('not_found', 'Branch Not Found')
    const read = (oid: string) => git.readCommit({ fs, gitdir, oid, cache: cacheFor(gitdir) })
    const { commit } = await read(opts.oid)
    const parentTree = commit.parent[0] ? (await read(commit.parent[0])).commit.tree : await emptyTree(gitdir)
    const headTree = (await read(head)).commit.tree
    const { tree } = await mergeTrees(gitdir, commit.tree, headTree, parentTree)
    // A conflict, or a change the branch no longer has: GitLab refuses both in the same words, told apart by error_code.
    if (!tree) throw new GitError('conflict', CONFLICT)
    if (tree === headTree) throw new GitError('empty', CONFLICT)
    const message = revertMessage(commit.message, opts.oid)
    const oid = await git.writeCommit({ fs, gitdir, commit: { message, tree, parent: [head], author: opts.committer, committer: opts.committer } })
    if (!opts.dryRun) await moveRef(gitdir, ref, oid, head)
    return { oid, before: head, dryRun: Boolean(opts.dryRun) }
  })
}

const emptyTree = (gitdir: string) => git.writeTree({ fs, gitdir, tree: [] })
