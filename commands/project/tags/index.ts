// collab project tags (or tag): list, create and delete a project's tags (list when no verb is given).
import type { Command } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as list from './list.js'

export function register(group: Command, rt: Runtime): void {
  const tags = group.command('tags').alias('tag').description('List, create and delete the tags of a project')
  list.register(tags, rt)
  create.register(tags, rt)
  del.register(tags, rt)
}
