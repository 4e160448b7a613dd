// Revert as a three-way apply of a commit's inverse: its first parent's tree merged onto the branch against its own.
import fs from 'node:fs'
import * as git from './iso.js'
import { readCommitParts } from './commit-read.js'
import { withRepoLock } from './lock.js'
import { mergeTrees } from './merge/engine.js'
import { readRawMessage, readRef } from './read.js'
import { GitError } from './types.js'
import { moveRef, writeExactCommit, type Signature } from './write.js'

// Commits::RevertService's words (GitLab's ChangeService#error_message with the action `revert`).
const CONFLICT = 'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.'

/** Commit#title: the first line, cut at a word before 81 characters (with `...`) when it has 100 or more. */
export function commitTitle(message: string): string {
  const full = message.trim() ? message.split(/[\r\n]/, 1)[0] : 'No commit message'
  if (full.length < 100) return full
  const space = full.lastIndexOf(' ', 78)
  return `${full.slice(0, space >= 0 ? space : 78)}...`
}

/**
 * Commit#revert_message: `Revert "<title>"`, a blank line and `This reverts commit <sha>`, or `This reverts merge
 * request !<iid>` for a merge request's merge commit; stored without a final newline, as GitLab writes it.
 */
export const revertMessage = (message: string, description: string) => `Revert "${commitTitle(message).trim()}"\n\n${description}`

export interface RevertRequest {
  oid: string
  branch: string
  committer: Signature
  dryRun?: boolean
  /** The merge request `oid` merged (`!3`), whose wording the message then takes. */
  mergeRequestRef?: string
}

/** Reverts `oid` (a resolved commit) on `branch`; a dry run computes the commit without moving the branch. */
export async function revert(gitdir: string, opts: RevertRequest) {
  return withRepoLock(gitdir, async () => {
    const ref = `refs/heads/${opts.branch}`
    const head = await readRef(gitdir, ref)
    if (!head) throw new GitError('not_found', 'Branch Not Found')
    const commit = await readCommitParts(gitdir, opts.oid)
    const parentTree = commit.parents[0] ? (await readCommitParts(gitdir, commit.parents[0])).tree : await emptyTree(gitdir)
    const headTree = (await readCommitParts(gitdir, head)).tree
    const { tree } = await mergeTrees(gitdir, commit.tree, headTree, parentTree)
    // A conflict, or a change the branch no longer has: GitLab refuses both in the same words, told apart by error_code.
    if (!tree) throw new GitError('conflict', CONFLICT)
    if (tree === headTree) throw new GitError('empty', CONFLICT)
    const description = opts.mergeRequestRef ? `This reverts merge request ${opts.mergeRequestRef}` : `This reverts commit ${opts.oid}`
    const message = revertMessage(await readRawMessage(gitdir, opts.oid), description)
    const oid = await writeExactCommit(gitdir, { message, tree, parent: [head], author: opts.committer, committer: opts.committer })
    if (!opts.dryRun) await moveRef(gitdir, ref, oid, head)
    return { oid, before: head, dryRun: Boolean(opts.dryRun) }
  })
}

const emptyTree = (gitdir: string) => git.writeTree({ fs, gitdir, tree: [] })
