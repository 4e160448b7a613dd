// collab issue: list, view, create, edit, close, reopen, delete and move issues; subscriptions, todos, notes and time tracking.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as edit from './edit.js'
import * as link from './link.js'
import * as list from './list.js'
import * as move from './move.js'
import * as note from './note/index.js'
import * as participants from './participants.js'
import * as simple from './simple.js'
import * as time from './time/index.js'
import * as view from './view.js'

export const summary = 'Work with issues: list, view, create, edit, close, move, notes, time tracking'

export function register(group: Command, rt: Runtime): void {
  list.register(group, rt)
  view.register(group, rt)
  create.register(group, rt)
  edit.register(group, rt)
  simple.registerAll(group, rt)
  del.register(group, rt)
  move.register(group, rt)
  link.register(group, rt)
  participants.register(group, rt)
  note.register(group, rt)
  time.register(group, rt)
}
