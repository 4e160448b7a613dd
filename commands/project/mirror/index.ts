// collab project mirror (or mirrors): list, create, sync and delete a project's push mirrors (list when no verb is given).
import type { Command } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as list from './list.js'
import * as sync from './sync.js'

export function register(group: Command, rt: Runtime): void {
  const mirror = group.command('mirror').alias('mirrors').description('List, create, sync and delete the push mirrors of a project')
  list.register(mirror, rt)
  create.register(mirror, rt)
  sync.register(mirror, rt)
  del.register(mirror, rt)
}
