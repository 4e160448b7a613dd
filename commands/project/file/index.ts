// collab project file: read a project's files without a clone (get when no verb is given).
import type { Command } from 'commander'
import type { Runtime } from '../../../src/cli/command.js'
import * as get from './get.js'
import * as list from './list.js'

export function register(group: Command, rt: Runtime): void {
  const file = group.command('file').alias('files').description("Print a file of a project's repository, or list its files")
  get.register(file, rt)
  list.register(file, rt)
}
