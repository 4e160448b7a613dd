// Cherry-pick as a real three-way apply: the commit's change (against its first parent) is merged onto the target branch.
import fs from 'node:fs'
import * as git from './iso.js'
import { readCommitParts } from './commit-read.js'
import { withRepoLock } from './lock.js'
import { mergeTrees } from './merge/engine.js'
import { readRef, resolveCommit } from './read.js'
import { GitError } from './types.js'
import { moveRef, type Signature } from './write.js'

const CONFLICT = 'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.'

export async function cherryPick(gitdir: string, opts: { sha: string; branch: string; committer: Signature; dryRun?: boolean; message?: string }) {
  return withRepoLock(gitdir, async () => {
    const pick = await resolveCommit(gitdir, opts.sha)
    if (!pick) throw new GitError('not_found', 'Commit Not Found')
    const ref = `refs/heads/${opts.branch}`
    const head = await readRef(gitdir, ref)
    if (!head) throw new GitError('not_found', 'Branch Not Found')
    const commit = await readCommitParts(gitdir, pick)
    const parentTree = commit.parents[0] ? (await readCommitParts(gitdir, commit.parents[0])).tree : null
    const headTree = (await readCommitParts(gitdir, head)).tree
    const { tree } = await mergeTrees(gitdir, parentTree, headTree, commit.tree)
    // A conflict, or a change the branch already has: GitLab refuses both alike.
    if (!tree || tree === headTree) throw new GitError('conflict', CONFLICT)
    const message = opts.message ?? `${commit.message.replace(/\n+$/, '')}\n\n(cherry picked from commit ${pick})\n`
    const oid = await git.writeCommit({ fs, gitdir, commit: { message, tree, parent: [head], author: commit.author, committer: opts.committer } })
    if (!opts.dryRun) await moveRef(gitdir, ref, oid, head)
    return { oid, before: head, dryRun: Boolean(opts.dryRun) }
  })
}
