// collab user: list, create, block, unblock and delete users (administrators).
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as block from './block.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as list from './list.js'
import * as unblock from './unblock.js'

export const summary = 'Administer users: list, create, block, unblock, delete'

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, create, block, unblock, del]) verb.register(group, rt)
}
