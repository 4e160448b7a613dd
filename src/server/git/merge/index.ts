// The merge engine's public face for services: merge status, merging, rebasing, forks, history between branches, messages.
export { checkMerge, checkMergeWithCommits, mergeBranches, MergeConflictError, mergeStatusOf, type CheckedMerge, type MergeCheck, type MergeMethod, type MergeOutcome, type MergeRequestMerge, type MergeSides } from './merge.js'
export { rebaseBranch, type RebaseOutcome, type RebaseRequest } from './rebase.js'
export { currentMergeRef, mergeRequestMergeRef, writeMergeRef, type MergeRefWrite } from './merge-ref.js'
export { fetchRef, mergeRequestHeadRef, rebaseOntoRepository, withFetchedCommit } from './fork.js'
export { commitsBetween, countBetween, divergedCommitsCount, mergeBase } from './history.js'
export { defaultMergeCommitMessage, defaultSquashCommitMessage, toSentence, type MergeMessageInput } from './messages.js'
