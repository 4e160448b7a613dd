// A merge request's code as its target repository holds it (refs/merge-requests/<iid>/head keeps a fork's too): its
// commits, its changes, and how far its source branch is behind the target.
import type { RequestContext } from '../../context.js'
import { diffBetween } from '../../git/diff.js'
import { patchText } from '../../git/diff-patch.js'
import { commitsBetween, divergedCommitsCount } from '../../git/merge/index.js'
import type { CommitInfo, DiffFile } from '../../git/types.js'
import type { MergeRequestRow } from '../../store/merge-requests.js'
import type { ProjectView } from '../../store/projects.js'
import { gitdirOf } from '../repository/repository.js'

/** Its commits since the merge base, newest first. */
export const mergeRequestCommits = async (ctx: RequestContext, p: ProjectView, mr: MergeRequestRow): Promise<CommitInfo[]> =>
  mr.source_sha && mr.target_sha ? commitsBetween(gitdirOf(ctx, p), mr.base_sha ?? mr.target_sha, mr.source_sha) : []

/** Its diff from the merge base to the source head. */
export const mergeRequestChanges = async (ctx: RequestContext, p: ProjectView, mr: MergeRequestRow): Promise<readonly DiffFile[]> =>
  mr.base_sha && mr.source_sha ? diffBetween(gitdirOf(ctx, p), mr.base_sha, mr.source_sha) : []

/** How many commits the target has that the source lacks (the API's diverged_commits_count). */
export const divergedCount = async (ctx: RequestContext, p: ProjectView, mr: MergeRequestRow): Promise<number> =>
  mr.source_sha && mr.target_sha ? divergedCommitsCount(gitdirOf(ctx, p), mr.source_sha, mr.target_sha) : 0

/** Its diff as one patch text (raw_diffs), from the same files as its changes. */
export const mergeRequestPatch = async (ctx: RequestContext, p: ProjectView, mr: MergeRequestRow): Promise<string> =>
  patchText(await mergeRequestChanges(ctx, p, mr))
