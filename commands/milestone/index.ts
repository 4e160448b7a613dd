// collab milestone: list, create, edit (close, reopen) and delete a project's milestones.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as edit from './edit.js'
import * as list from './list.js'

export const summary = "Work with a project's or a group's (--group) milestones: list, create, edit (close, reopen), delete"

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, create, edit, del]) verb.register(group, rt)
}
