// collab settings: read and change the instance's application settings (administrators only).
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as get from './get.js'
import * as set from './set.js'

export const summary = "Read and change the instance's application settings (administrators)"

export function register(group: Command, rt: Runtime): void {
  get.register(group, rt)
  set.register(group, rt)
}
