// collab token: a project's or a group's (--group) access tokens, as glab token: list, create, revoke, rotate.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as create from './create.js'
import * as list from './list.js'
import * as revoke from './revoke.js'
import * as rotate from './rotate.js'

export const summary = "Work with a project's or a group's (--group) access tokens: list, create, rotate, revoke"

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, create, rotate, revoke]) verb.register(group, rt)
}
