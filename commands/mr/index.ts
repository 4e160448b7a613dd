// collab mr: list, view, create, edit, merge, close, reopen, delete, diff, commits, check out and rebase merge requests;
// approvals, the head pipeline's checks, notes, subscriptions, todos, time tracking, participants and the issues a merge closes.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { registerNotes } from '../../src/cli/issuable/notes.js'
import { registerTime } from '../../src/cli/issuable/time.js'
import { registerDelete, registerSimple, sharedVerbs, type SimpleVerb } from '../../src/cli/issuable/verbs.js'
import * as checkout from './checkout.js'
import * as checks from './checks.js'
import * as commits from './commits.js'
import * as create from './create.js'
import * as diff from './diff.js'
import * as edit from './edit.js'
import * as list from './list.js'
import * as merge from './merge.js'
import * as related from './related.js'
import * as review from './review.js'
import { MERGE_REQUEST } from './shared.js'
import * as view from './view.js'

/** One request on one merge request, beside the verbs every issuable has. */
const OWN_VERBS: SimpleVerb[] = [
  { name: 'rebase', description: 'Rebase the source branch onto the target branch (on the server)', endpoint: 'rebaseMergeRequest', done: 'Rebase requested for merge request' },
  { name: 'approve', description: 'Approve a merge request', endpoint: 'approveMergeRequest', done: 'Approved merge request' },
  { name: 'unapprove', description: 'Withdraw your approval of a merge request', endpoint: 'unapproveMergeRequest', done: 'Withdrew your approval of merge request' },
]

export const summary = 'Work with merge requests: list, view, create, merge, approve, checks, diff, checkout, notes, time tracking'

export function register(group: Command, rt: Runtime): void {
  list.register(group, rt)
  view.register(group, rt)
  create.register(group, rt)
  edit.register(group, rt)
  merge.register(group, rt)
  registerSimple(group, rt, MERGE_REQUEST, [...sharedVerbs(MERGE_REQUEST, 'Close a merge request without merging it'), ...OWN_VERBS])
  registerDelete(group, rt, MERGE_REQUEST)
  diff.register(group, rt)
  commits.register(group, rt)
  checks.register(group, rt)
  checkout.register(group, rt)
  related.register(group, rt)
  registerNotes(group, rt, MERGE_REQUEST)
  review.register(group, rt)
  registerTime(group, rt, MERGE_REQUEST)
}
