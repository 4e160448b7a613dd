// collab project members: list, add, edit and remove the members of a project (list when no verb is given).
import type { Command } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import * as add from './add.js'
import * as edit from './edit.js'
import * as list from './list.js'
import * as remove from './remove.js'

export function register(group: Command, rt: Runtime): void {
  const members = group.command('members').description('List and manage the members of a project')
  list.register(members, rt)
  add.register(members, rt)
  edit.register(members, rt)
  remove.register(members, rt)
}
