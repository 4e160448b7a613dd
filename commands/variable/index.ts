// collab variable: list, read, set and delete the CI/CD variables of a project, a group (--group) or the instance (--instance).
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as del from './delete.js'
import * as get from './get.js'
import * as list from './list.js'
import * as set from './set.js'

export const summary = 'Work with CI/CD variables of a project, a group (--group) or the instance (--instance): list, get, set, delete'

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, get, set, del]) verb.register(group, rt)
}
