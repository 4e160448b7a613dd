// collab job: list, view, follow the log of, retry, cancel, play, erase and keep jobs; download their artifacts.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as actions from './actions.js'
import * as artifacts from './artifacts.js'
import * as list from './list.js'
import * as trace from './trace.js'
import * as view from './view.js'

export const summary = 'Work with CI jobs: list, view, trace (--follow), retry, cancel, play, erase, keep, artifacts download'

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, view, trace, actions, artifacts]) verb.register(group, rt)
}
