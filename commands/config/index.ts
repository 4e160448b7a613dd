// collab config: read and change the CLI's settings (gh's keys; -h/--host for per-host values).
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as get from './get.js'
import * as list from './list.js'
import * as set from './set.js'

export const summary = 'Read and change settings of the CLI'

export function register(group: Command, rt: Runtime): void {
  get.register(group, rt)
  set.register(group, rt)
  list.register(group, rt)
}

