// collab project branches (or branch): list, create and delete a project's branches (list when no verb is given).
import type { Command } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as list from './list.js'

export function register(group: Command, rt: Runtime): void {
  const branches = group.command('branches').alias('branch').description('List, create and delete the branches of a project')
  list.register(branches, rt)
  create.register(branches, rt)
  del.register(branches, rt)
}
