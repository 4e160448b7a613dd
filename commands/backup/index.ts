// collab backup: a consistent copy of a collab serve instance (create) and a new data directory made from one (restore).
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as create from './create.js'
import * as restore from './restore.js'

export const summary = 'Back up a collab serve instance into one archive (create), or make a data directory from one (restore)'

export function register(group: Command, rt: Runtime): void {
  create.register(group, rt)
  restore.register(group, rt)
}
