// collab project branches (or branch): list, create, delete, protect and unprotect a project's branches (list when no verb is given).
import type { Command } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as list from './list.js'
import * as protect from './protect.js'
import * as protectedList from './protected.js'
import * as unprotect from './unprotect.js'

export function register(group: Command, rt: Runtime): void {
  const branches = group.command('branches').alias('branch').description('List, create, delete and protect the branches of a project')
  list.register(branches, rt)
  create.register(branches, rt)
  del.register(branches, rt)
  protect.register(branches, rt)
  unprotect.register(branches, rt)
  protectedList.register(branches, rt)
}
