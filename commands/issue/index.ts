// collab issue: list, view, create, edit, close, reopen, delete and move issues; subscriptions, todos, notes and time tracking.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { registerNotes } from '../../src/cli/issuable/notes.js'
import { registerTime } from '../../src/cli/issuable/time.js'
import { registerDelete, registerSimple, sharedVerbs } from '../../src/cli/issuable/verbs.js'
import * as create from './create.js'
import * as edit from './edit.js'
import * as link from './link.js'
import * as list from './list.js'
import * as move from './move.js'
import * as participants from './participants.js'
import { ISSUE } from './shared.js'
import * as view from './view.js'

export const summary = 'Work with issues: list, view, create, edit, close, move, notes, time tracking'

export function register(group: Command, rt: Runtime): void {
  list.register(group, rt)
  view.register(group, rt)
  create.register(group, rt)
  edit.register(group, rt)
  registerSimple(group, rt, ISSUE, sharedVerbs(ISSUE))
  registerDelete(group, rt, ISSUE)
  move.register(group, rt)
  link.register(group, rt)
  participants.register(group, rt)
  registerNotes(group, rt, ISSUE)
  registerTime(group, rt, ISSUE)
}
