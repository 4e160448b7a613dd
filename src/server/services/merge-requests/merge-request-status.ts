// What a merge request knows of its branches: heads, merge_status, changes_count, its commits and the issues it would
// close, computed when it is created or changed and again whenever either branch moves (onRefsMoved).
import { CollabError } from '../../../core/errors.js'
import type { AppDeps } from '../../context.js'
import { diffBetween } from '../../git/diff.js'
import { checkMergeWithCommits, defaultMergeCommitMessage, fetchRef, mergeRequestHeadRef, mergeRequestMergeRef, mergeStatusOf, writeMergeRef, type CheckedMerge } from '../../git/merge/index.js'
import { readRef } from '../../git/read.js'
import { repositoryDir } from '../../git/repository.js'
import { GitError } from '../../git/types.js'
import { transaction } from '../../store/db.js'
import { findIssueById, usersByIds } from '../../store/issues.js'
import * as store from '../../store/merge-requests.js'
import { insertNote } from '../../store/notes.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import { onRefsMoved, type PushEvent } from '../repository/git-access.js'
import { closingIssueIds } from '../issuables/issue-references.js'
import { signatureAt } from '../repository/repository.js'

/** GitLab's cap on the files of a merge request's diff. */
export const CHANGES_CAP = 1000
const gitdirOf = (app: AppDeps, projectId: number) => repositoryDir(app.layout.repositories, projectId)

/**
 * The source head as the target repository sees it. Like GitLab, every merge request's head is also kept in the target
 * repository as refs/merge-requests/<iid>/head (`git fetch origin merge-requests/1/head` checks one out, a fork's too).
 */
async function sourceRefIn(app: AppDeps, mr: store.MergeRequestRow): Promise<string | null> {
  const branchRef = `refs/heads/${mr.source_branch}`
  // A deleted fork's head stays in the target as refs/merge-requests/<iid>/head, but its branch is gone (GitLab's
  // source_branch_exists? is false without a source project).
  if (mr.source_project_id === null) return null
  const from = gitdirOf(app, mr.source_project_id)
  if (!(await readRef(from, branchRef))) return null
  await fetchRef(gitdirOf(app, mr.project_id), from, branchRef, mergeRequestHeadRef(mr.iid))
  return mr.source_project_id === mr.project_id ? branchRef : mergeRequestHeadRef(mr.iid)
}

/** `check` is what git decided of the heads it saw (null when a branch is missing): a merge right after may reuse it. */
export interface Refreshed { row: store.MergeRequestRow; newCommits: number; check: CheckedMerge | null }

const pathOf = (p: ProjectView) => `${p.ns_full_path}/${p.path}`

/** References of the open issues a merge closes, as the default merge commit message names them (`#1`, `group/other#2`). */
function closesRefs(app: AppDeps, target: ProjectView, ids: number[]) {
  return ids.flatMap((id) => {
    const issue = findIssueById(app.db, id)
    if (!issue || issue.state !== 'opened') return []
    return [issue.project_id === target.id ? `#${issue.iid}` : `${pathOf(findProjectById(app.db, issue.project_id)!)}#${issue.iid}`]
  })
}

/** MergeRequest#default_merge_commit_message: what a merge writes unless the merger gives a message. */
export const mergeCommitMessageOf = (app: AppDeps, target: ProjectView, mr: store.MergeRequestRow, closing: number[]) => defaultMergeCommitMessage({
  sourceBranch: mr.source_branch, targetBranch: mr.target_branch, title: mr.title,
  closesIssues: closesRefs(app, target, closing), reference: `${pathOf(target)}!${mr.iid}`,
})

/**
 * Writes refs/merge-requests/<iid>/merge when the check found the merge clean (GitLab's MergeToRefService, run by the
 * mergeability check): the target and source heads merged by the merge request's author, with the default message.
 */
async function updateMergeRef(app: AppDeps, target: ProjectView, mr: store.MergeRequestRow, check: CheckedMerge, closing: number[]) {
  if (!check.tree || mergeStatusOf(check).mergeStatus !== 'can_be_merged') return
  const author = usersByIds(app.db, [mr.author_id]).get(mr.author_id)
  if (!author) return
  await writeMergeRef(gitdirOf(app, target.id), mr.iid, {
    targetHead: check.targetHead, sourceHead: check.sourceHead, tree: check.tree, message: mergeCommitMessageOf(app, target, mr, closing),
    user: signatureAt(app, author.name, author.email),
  })
}

/**
 * Recomputes what the branches decide and stores it; a missing branch makes the merge request `cannot_be_merged`
 * (`commits_status`). Merged and closed merge requests keep what they had.
 */
export async function refreshMergeRequest(app: AppDeps, mr: store.MergeRequestRow): Promise<Refreshed> {
  const target = findProjectById(app.db, mr.project_id)!
  const gitdir = gitdirOf(app, mr.project_id)
  const sourceRef = await sourceRefIn(app, mr)
  let patch: store.MergeRequestPatch
  let commits: string[] = []
  let messages: string[] = []
  let checked: CheckedMerge | null = null
  if (!sourceRef || !(await readRef(gitdir, `refs/heads/${mr.target_branch}`))) {
    patch = { merge_status: 'cannot_be_merged', git_merge_status: 'commits_status', changes_count: null }
  } else {
    try {
      const { check, commits: list } = await checkMergeWithCommits(gitdir, { sourceBranch: mr.source_branch, targetBranch: mr.target_branch, sourceRef, method: target.merge_method })
      checked = check
      const status = mergeStatusOf(check)
      const base = check.mergeBase
      commits = list.map((c) => c.id)
      messages = list.map((c) => c.message)
      const files = base ? await diffBetween(gitdir, base, check.sourceHead) : []
      patch = {
        merge_status: status.mergeStatus, git_merge_status: status.detailed, source_sha: check.sourceHead, target_sha: check.targetHead,
        base_sha: base, changes_count: files.length > CHANGES_CAP ? `${CHANGES_CAP}+` : String(files.length),
      }
    } catch (err) {
      if (!(err instanceof GitError)) throw err
      patch = { merge_status: 'cannot_be_merged', git_merge_status: 'commits_status' }
    }
  }
  const previous = mr.source_sha
  const closing = mr.target_branch === target.default_branch
    ? closingIssueIds(app.db, target, [mr.title, mr.description ?? '', ...messages].join('\n'))
    : []
  if (checked && mr.state === 'opened') await updateMergeRef(app, target, mr, checked, closing)
  return transaction(app.db, () => {
    const current = store.findMergeRequestById(app.db, mr.id)
    // Merged or closed meanwhile, or deleted: what it had stays.
    if (!current || current.state !== 'opened') return { row: current ?? mr, newCommits: 0, check: checked }
    store.updateMergeRequest(app.db, mr.id, { ...patch, prepared_at: current.prepared_at ?? current.created_at })
    if (patch.source_sha !== undefined) store.setCommits(app.db, mr.id, commits)
    store.setClosingIssues(app.db, mr.id, closing)
    const moved = previous !== null && patch.source_sha !== undefined && patch.source_sha !== previous
    // Commits are newest first: the old head's position counts the new ones; after a force push, all are new.
    const at = previous === null ? -1 : commits.indexOf(previous)
    return { row: store.findMergeRequestById(app.db, mr.id)!, newCommits: moved ? (at >= 0 ? at : commits.length) : 0, check: checked }
  })
}

/**
 * GET …/merge_ref: the mergeability check run again (GitLab's recheck), which rewrites the merge ref when either branch
 * moved, then the ref's commit; 400 with MergeabilityCheckService's words when the merge request cannot be merged.
 * Merged and closed ones keep the status and ref they had.
 */
export async function mergeRefOf(app: AppDeps, mr: store.MergeRequestRow): Promise<string> {
  const row = mr.state === 'opened' ? (await refreshMergeRequest(app, mr)).row : mr
  if (row.merge_status !== 'can_be_merged') throw new CollabError('NOT_MERGEABLE', 'Merge request is not mergeable', { status: 400 })
  const oid = await readRef(gitdirOf(app, row.project_id), mergeRequestMergeRef(row.iid))
  if (!oid) throw new CollabError('MERGE_REF_NOT_UPDATED', 'Merge ref cannot be updated', { status: 400 })
  return oid
}

/** `added 2 commits`, GitLab's system note (without its commit list) when the source branch gains commits. */
function noteNewCommits(app: AppDeps, mr: store.MergeRequestRow, user: UserRow, count: number) {
  if (count <= 0) return
  const at = app.clock.now().toISOString()
  insertNote(app.db, { noteable_id: mr.id, author_id: user.id, body: `added ${count} commit${count === 1 ? '' : 's'}`, system: 1, created_at: at, updated_at: at })
}

/** After a push or an API write: every open merge request whose source or target branch moved is checked again. */
async function onPush(app: AppDeps, event: PushEvent) {
  const branches = event.changes.flatMap((c) => (c.ref.startsWith('refs/heads/') ? [c.ref.slice('refs/heads/'.length)] : []))
  for (const mr of store.openOnBranches(app.db, event.project.id, branches)) {
    const sourceMoved = mr.source_project_id === event.project.id && branches.includes(mr.source_branch)
    const { newCommits } = await refreshMergeRequest(app, mr)
    if (sourceMoved) noteNewCommits(app, mr, event.user, newCommits)
  }
}

/** Subscribes the merge request checks to ref moves of this server; returns the unsubscribe. */
export const watchMergeRequestBranches = (app: AppDeps) => onRefsMoved(app, onPush)
