// collab mr: list, view, create, edit, merge, close, reopen, delete, diff, commits, check out and rebase merge requests;
// approvals, the head pipeline's checks, notes, subscriptions, todos, time tracking, participants and the issues a merge closes.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as checkout from './checkout.js'
import * as checks from './checks.js'
import * as commits from './commits.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as diff from './diff.js'
import * as edit from './edit.js'
import * as list from './list.js'
import * as merge from './merge.js'
import * as note from './note/index.js'
import * as related from './related.js'
import * as review from './review.js'
import * as simple from './simple.js'
import * as time from './time/index.js'
import * as view from './view.js'

export const summary = 'Work with merge requests: list, view, create, merge, approve, checks, diff, checkout, notes, time tracking'

export function register(group: Command, rt: Runtime): void {
  list.register(group, rt)
  view.register(group, rt)
  create.register(group, rt)
  edit.register(group, rt)
  merge.register(group, rt)
  simple.registerAll(group, rt)
  del.register(group, rt)
  diff.register(group, rt)
  commits.register(group, rt)
  checks.register(group, rt)
  checkout.register(group, rt)
  related.register(group, rt)
  note.register(group, rt)
  review.register(group, rt)
  time.register(group, rt)
}
