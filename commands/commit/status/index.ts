// collab commit status: set and list the statuses of a commit (list when no verb is given).
import type { Command } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import * as list from './list.js'
import * as set from './set.js'

export function register(group: Command, rt: Runtime): void {
  const status = group.command('status').alias('statuses').description('Set and list the statuses of a commit (what CI scripts report)')
  list.register(status, rt)
  set.register(status, rt)
}
